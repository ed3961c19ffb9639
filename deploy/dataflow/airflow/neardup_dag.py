"""Runs neardup on Dataflow for every new monthly enwiki dump.

NOT run by this project's tests (no Airflow or Google Cloud here);
deploy_test.go checks that every key of PIPELINE_OPTIONS is a flag of the
pipeline binary, compiles this file and, with python3, imports it without
Airflow to check dump_date and run_id and render the options' templates.

Needs apache-airflow-providers-apache-beam and -google, and these Airflow
variables: neardup_project, neardup_region, neardup_bucket, neardup_version
(a release of scripts/release.sh uploaded to
gs://BUCKET/releases/VERSION/), neardup_service_account.

Each run waits for the dump of the first of its month to be mirrored to
gs://BUCKET/dumps/enwiki/YYYYMM01/ (ending with a _DONE object), then runs the
pipeline with run id enwiki-YYYYMM01, derived from the run's data interval
by dump_date: a retry or a backfill of a month targets the same run
directory. A finished run directory is never overwritten (the launch fails,
before any work, instead of redoing it), and a launch while another holds
the directory is refused.
"""

try:
    import pendulum
    from airflow import DAG
    from airflow.providers.apache.beam.operators.beam import BeamRunGoPipelineOperator
    from airflow.providers.google.cloud.operators.dataflow import DataflowConfiguration
    from airflow.providers.google.cloud.sensors.gcs import GCSObjectExistenceSensor
except ImportError:  # deploy_test.go imports this file without Airflow
    DAG = None


def dump_date(data_interval_end):
    """Returns the date, YYYYMMDD, of the dump a run processes: Wikimedia's
    dump of the first of the month in which the run's data interval ends.
    The monthly run of 12 June 2026 (interval 12 May to 12 June) processes
    the dump of 1 June: 20260601. A retry of a run has its interval, and so
    its dump."""
    return data_interval_end.strftime("%Y%m") + "01"


def run_id(dump):
    """Returns the run id, and run directory name, of the run of a dump."""
    return "enwiki-" + dump


# Rendered by Airflow at run time with the macros of the DAG below.
BUCKET = "{{ var.value.neardup_bucket }}"
DUMP = "{{ neardup_dump_date(data_interval_end) }}"
RUN_ID = "{{ neardup_run_id(neardup_dump_date(data_interval_end)) }}"
BINARY = (
    "gs://" + BUCKET + "/releases/{{ var.value.neardup_version }}/"
    "sentences-{{ var.value.neardup_version }}-linux-amd64"
)

# Every key is a flag of the pipeline binary (checked by deploy_test.go).
# project, region and job_name come from DataflowConfiguration below.
PIPELINE_OPTIONS = {
    "input": "gs://" + BUCKET + "/dumps/enwiki/" + DUMP + "/enwiki-" + DUMP + "-pages-articles-multistream*.xml*.bz2",
    "output": "gs://" + BUCKET + "/neardup/enwiki",
    "run_id": RUN_ID,
    "shards": "256",
    "output_shards": "16",
    "staging_location": "gs://" + BUCKET + "/staging",
    "temp_location": "gs://" + BUCKET + "/tmp",
    "worker_machine_type": "n2-standard-4",
    "max_num_workers": "32",
    "service_account_email": "{{ var.value.neardup_service_account }}",
}

MACROS = {"neardup_dump_date": dump_date, "neardup_run_id": run_id}

if DAG is not None:
    with DAG(
        dag_id="neardup_enwiki",
        description="Near-duplicate sentences of each monthly enwiki dump",
        schedule="0 6 12 * *",
        start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
        catchup=False,
        max_active_runs=1,
        default_args={"retries": 1, "retry_delay": pendulum.duration(minutes=30)},
        user_defined_macros=MACROS,
        tags=["neardup", "dataflow"],
    ) as dag:
        dump_mirrored = GCSObjectExistenceSensor(
            task_id="dump_mirrored",
            bucket=BUCKET,
            object="dumps/enwiki/" + DUMP + "/_DONE",
            mode="reschedule",
            poke_interval=3600,
            timeout=14 * 24 * 3600,
        )

        # The release binary is the launcher, on the Airflow worker, and the
        # workers' binary (--worker_binary), downloaded by the operator.
        find_near_duplicates = BeamRunGoPipelineOperator(
            task_id="find_near_duplicates",
            runner="DataflowRunner",
            launcher_binary=BINARY,
            worker_binary=BINARY,
            pipeline_options=PIPELINE_OPTIONS,
            dataflow_config=DataflowConfiguration(
                job_name="neardup-" + RUN_ID,
                append_job_name=False,  # Dataflow refuses a second running job of this name
                project_id="{{ var.value.neardup_project }}",
                location="{{ var.value.neardup_region }}",
                wait_until_finished=True,
            ),
        )

        dump_mirrored >> find_near_duplicates

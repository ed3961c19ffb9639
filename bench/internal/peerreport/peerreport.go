// Package peerreport is the JSON that bench/cmd/peer prints and
// bench/cmd/bench reads.
package peerreport

// Report is the JSON object that bench/cmd/peer prints.
type Report struct {
	ShingleLength int     `json:"shingle_length"`
	Threshold     float64 `json:"threshold"`
	Sentences     int     `json:"sentences"`
	Peer          Peer    `json:"peer"`
	Exact         *Exact  `json:"exact,omitempty"`
}

// Peer describes the peer's run.
type Peer struct {
	Hashes             int     `json:"hashes"`
	BandRows           int     `json:"band_rows"` // the library's K
	Bands              int     `json:"bands"`     // the library's L
	Seconds            float64 `json:"seconds"`   // signatures + index + queries and union-find
	SignatureSeconds   float64 `json:"signature_seconds"`
	IndexSeconds       float64 `json:"index_seconds"`
	QuerySeconds       float64 `json:"query_seconds"`
	Clusters           int     `json:"clusters"`
	ClusteredSentences int     `json:"clustered_sentences"`
}

// Exact compares both systems with the exact pairs.
type Exact struct {
	Pairs                      int     `json:"pairs"`
	Seconds                    float64 `json:"seconds"`
	PeerRecall                 float64 `json:"peer_recall"`
	PipelineRecall             float64 `json:"pipeline_recall"`
	PipelineClusters           int     `json:"pipeline_clusters"`
	PipelineClusteredSentences int     `json:"pipeline_clustered_sentences"`
}

// Pair is a line of the exact pairs that bench/cmd/peer -pairs writes: two
// sentence ids and the Jaccard similarity of their shingle sets. It has the
// fields of a line of the pipeline's edges-*.jsonl (whose Edit the exact
// pairs leave out), so that one reader reads both.
type Pair struct {
	A       string  `json:"a"`
	B       string  `json:"b"`
	Jaccard float64 `json:"jaccard"`
	Edit    float64 `json:"edit,omitempty"`
}

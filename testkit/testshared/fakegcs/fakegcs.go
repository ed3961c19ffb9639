// Package fakegcs serves an in-process fake Google Cloud Storage for tests.
//
// Beam's gcs filesystem builds its own storage client: the only way to
// point it at a fake server is STORAGE_EMULATOR_HOST. The storage client
// then reads objects through the XML API at http://HOST/BUCKET/OBJECT,
// which the fake server answers only when its PublicHost is that same HOST.
package fakegcs

import (
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"testing"

	"github.com/fsouza/fake-gcs-server/fakestorage"
)

// Server is a fake GCS server holding one bucket.
type Server struct {
	*fakestorage.Server
	Host   string // host:port, for STORAGE_EMULATOR_HOST
	Bucket string
}

// Start serves bucket, holding objects, on a fresh loopback port until the
// test ends. It does not set STORAGE_EMULATOR_HOST: see Setenv.
func Start(t testing.TB, bucket string, objects ...fakestorage.Object) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := uint16(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	host := fmt.Sprintf("127.0.0.1:%d", port)
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		InitialObjects: objects,
		Scheme:         "http",
		Host:           "127.0.0.1",
		Port:           port,
		PublicHost:     host,
		Writer:         io.Discard,
	})
	if err != nil {
		t.Fatalf("starting fake GCS server: %v", err)
	}
	t.Cleanup(srv.Stop)
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: bucket})
	return &Server{Server: srv, Host: host, Bucket: bucket}
}

// Setenv starts the server as Start does and points Beam's gcs filesystem
// (in this process) at it for the rest of the test.
func Setenv(t *testing.T, bucket string, objects ...fakestorage.Object) *Server {
	t.Helper()
	s := Start(t, bucket, objects...)
	t.Setenv("STORAGE_EMULATOR_HOST", s.Host)
	return s
}

// Object is the object name of bucket, holding content.
func Object(bucket, name string, content []byte) fakestorage.Object {
	return fakestorage.Object{
		ObjectAttrs: fakestorage.ObjectAttrs{BucketName: bucket, Name: name},
		Content:     content,
	}
}

// FileObject is the object name of bucket, holding the local file path.
func FileObject(t testing.TB, bucket, name, path string) fakestorage.Object {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Object(bucket, name, content)
}

// Objects lists the names of the bucket's objects under prefix, sorted, as
// the server sees them.
func (s *Server) Objects(t testing.TB, prefix string) []string {
	t.Helper()
	resp, err := s.ListObjectsWithOptionsPaginated(s.Bucket, fakestorage.ListOptions{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range resp.Objects {
		names = append(names, a.Name)
	}
	slices.Sort(names)
	return names
}

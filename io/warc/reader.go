package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/neardup/neardup/io/document"
	"github.com/neardup/neardup/io/dump"
)

// RecordError reports a record that could not be read: its header or
// framing is bad (a wrong Content-Length, a gzip member that is not a WARC
// record), or it is larger than the size cap. The Reader has skipped it:
// call Next again to go on.
type RecordError struct {
	DeadLetter document.DeadLetter
	// Type is the record's WARC-Type, "" if its header could not be read.
	Type string
	// TooLarge says the record was skipped, unread, for its size.
	TooLarge bool
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("warc: %s: bad record at offset %d: %s", e.DeadLetter.File, e.DeadLetter.Offset, e.DeadLetter.Reason)
}

// TruncatedError reports that the stream ended inside a record, or that
// its decompressor failed: every complete record before Offset has been
// returned. It is terminal, and matches dump.ErrTruncated.
type TruncatedError struct {
	File   string
	Offset int64 // where the cut record (or gzip member) starts
	Err    error // the cause
}

func (e *TruncatedError) Error() string {
	return fmt.Sprintf("warc: %s: truncated at offset %d: %v", e.File, e.Offset, e.Err)
}

func (e *TruncatedError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, dump.ErrTruncated) true.
func (e *TruncatedError) Is(target error) bool { return target == dump.ErrTruncated }

// ReadOptions says how records are read.
type ReadOptions struct {
	// MaxRecordBytes bounds a record's block (its Content-Length): a
	// larger record is skipped without being buffered, and reported (0:
	// dump.DefaultMaxPageBytes).
	MaxRecordBytes int
}

// Reader reads the records of one Source: a whole WARC file or the records
// of a split of it.
type Reader struct {
	src    Source
	max    int64
	in     buffer // the stream: raw bytes (Members), else WARC
	member buffer // the current gzip member's content (Members)
	zr     *gzip.Reader
	synced bool  // at a record start
	err    error // terminal
	// skipped counts the bytes skipped unread: oversized records, bad
	// records and the bytes between a bad record and the next record
	// start (Skipped).
	skipped int64
	closer  io.Closer // of Open's stream
}

// NewReader returns a Reader of the records of src in r, src's stream as
// Open opens it: the raw bytes of the file from StreamOffset(src) for a
// split or a gzip-per-record file (src.Members), else the file's content,
// decompressed by dump.Open by its extension.
func NewReader(r io.Reader, src Source, opt ReadOptions) *Reader {
	max := int64(opt.MaxRecordBytes)
	if max <= 0 {
		max = dump.DefaultMaxPageBytes
	}
	rd := &Reader{src: src, max: max, synced: src.Start == 0 || src.Aligned}
	rd.in.reset(r, StreamOffset(src))
	return rd
}

// StreamOffset is the offset in src's file where its stream starts: a
// byte before Start for a split of an uncompressed file that is not
// aligned on a record (the byte tells whether Start is at a line's start),
// else Start.
func StreamOffset(src Source) int64 {
	if !src.Members && !src.Aligned && src.Start > 0 {
		return src.Start - 1
	}
	return src.Start
}

// Skipped is how many bytes of the stream the Reader has skipped unread:
// records over the size cap, bad records, and whatever lies between a bad
// record and the next record start.
func (r *Reader) Skipped() int64 { return r.skipped }

// Close closes the stream of a Reader made by Open.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

// Next returns the next record and the offset where it starts: that of its
// gzip member in a gzip-per-record file (Source.Members), else of its
// version line in the (decompressed) stream. A record's Fields are those of
// its header but WARC-Type (Type) and Content-Length (the Block's length).
// Next returns a *RecordError for a bad or oversized record (skipped), a
// *TruncatedError when the stream is cut, io.EOF at the end of the file or
// split, and any other error of the stream.
func (r *Reader) Next() (Record, int64, error) {
	if r.err != nil {
		return Record{}, 0, r.err
	}
	var rec Record
	var off int64
	var err error
	if r.src.Members {
		rec, off, err = r.nextMember()
	} else {
		rec, off, err = r.nextStream()
	}
	var bad *RecordError
	if err != nil && !errors.As(err, &bad) {
		r.err = err
	}
	return rec, off, err
}

// ended says whether a record at off is past the end of the split.
func (r *Reader) ended(off int64) bool { return r.src.End > 0 && off >= r.src.End }

// bad returns a *RecordError for the record at off.
func (r *Reader) bad(off int64, typ string, format string, args ...any) *RecordError {
	return &RecordError{DeadLetter: document.DeadLetter{File: r.src.File, Offset: off, Reason: fmt.Sprintf(format, args...)}, Type: typ}
}

// ioError wraps an error of the stream, or reports the stream as truncated
// at off when the error is a decompressor's.
func (r *Reader) ioError(off int64, err error) error {
	var src *dump.SourceError
	if errors.As(err, &src) || !dump.IsDecodeFailure(err) {
		return fmt.Errorf("warc: reading %s at offset %d: %w", r.src.File, off, err)
	}
	return &TruncatedError{File: r.src.File, Offset: off, Err: err}
}

// readRecord reads a record from s, whose version line is next, and
// returns it, with the bytes of its block read so far for giving them back
// (nil when the block was too large to keep). cut says the stream ended
// inside the record.
func (r *Reader) readRecord(s *buffer, off int64) (rec Record, h header, cut bool, err error) {
	head := s.peek(maxHeaderBytes)
	h, err = parseHeader(head, s.err != nil)
	if errors.Is(err, errHeaderCut) {
		return Record{}, h, true, err
	}
	if err != nil {
		return Record{}, h, false, r.bad(off, "", "bad header: %v", err)
	}
	s.discard(h.size)
	if h.length > r.max {
		if s != &r.in { // a gzip member: its end bounds the skip
			n := s.skip(h.length)
			return Record{}, h, n < h.length, r.tooLarge(off, h, "")
		}
		return r.skipOversized(off, h)
	}
	block := make([]byte, h.length)
	n := s.readFull(block)
	rec = Record{Type: h.typ, Fields: h.fields, Block: block[:n]}
	if int64(n) < h.length {
		return rec, h, true, fmt.Errorf("Content-Length %d but only %d bytes follow the header", h.length, n)
	}
	return rec, h, false, nil
}

// tooLarge is the error of the record at off, over the size cap; more
// says what else is wrong with it.
func (r *Reader) tooLarge(off int64, h header, more string) *RecordError {
	e := r.bad(off, h.typ, "%s record of %d bytes, over the %d-byte limit (--max_page_bytes)%s", h.typ, h.length, r.max, more)
	e.TooLarge = true
	return e
}

// skipOversized skips the block of the record at off, over the size cap,
// in an uncompressed stream whose position is the block's start. It does
// not take the record's Content-Length on trust: it stops at the first
// record start inside the block (a wrong Content-Length, 2^63-1 or too
// long by a byte, would otherwise swallow every later record), and reports
// the stream cut if it ends before the block does.
func (r *Reader) skipOversized(off int64, h header) (Record, header, bool, error) {
	s := &r.in
	start := s.off
	end := start + h.length
	if end < start { // overflow
		end = math.MaxInt64
	}
	found := r.scanToRecord(end)
	r.skipped += s.off - off
	switch {
	case found:
		return Record{}, h, false, r.tooLarge(off, h, fmt.Sprintf(", and a record starts %d bytes into its block: its Content-Length is wrong; read on from there", s.off-start))
	case s.off < end:
		return Record{}, h, true, fmt.Errorf("%s record of %d bytes, over the %d-byte limit (--max_page_bytes): the stream ends %d bytes before its block does", h.typ, h.length, r.max, end-s.off)
	}
	return Record{}, h, false, r.tooLarge(off, h, "")
}

// gzipMagic starts a gzip member: ID1, ID2 and the deflate method.
var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// countingReader counts the bytes read from a buffer, byte by byte when
// asked, so that gzip reads exactly a member and no byte more.
type countingReader struct{ s *buffer }

func (c countingReader) ReadByte() (byte, error) {
	b := c.s.peek(1)
	if len(b) == 0 {
		if c.s.err == nil || c.s.err == io.EOF {
			return 0, io.EOF
		}
		return 0, c.s.err
	}
	c.s.discard(1)
	return b[0], nil
}

func (c countingReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	b := c.s.peek(1)
	if len(b) == 0 {
		if c.s.err == nil {
			return 0, io.EOF
		}
		return 0, c.s.err
	}
	n := copy(p, c.s.buffered())
	c.s.discard(n)
	return n, nil
}

var _ io.ByteReader = countingReader{}

// isMemberStart reports whether b starts with a gzip member whose content
// starts with a WARC version line.
func isMemberStart(b []byte) bool {
	if !bytes.HasPrefix(b, gzipMagic) {
		return false
	}
	zr, err := gzip.NewReader(bufio.NewReader(bytes.NewReader(b)))
	if err != nil {
		return false
	}
	var v [10]byte
	n, _ := io.ReadFull(zr, v[:])
	ok, _ := isVersionLine(v[:n])
	return ok
}

// memberPeek is how many bytes of a candidate gzip member isMemberStart
// looks at.
const memberPeek = 16 << 10

// syncMember moves the stream to the first gzip member at or after its
// position and before offset limit that holds a WARC record, and says
// whether there is one.
func (r *Reader) syncMember(limit int64) bool {
	for r.in.off < limit {
		b := r.in.peek(chunk)
		i := bytes.Index(b, gzipMagic)
		if i < 0 {
			if len(b) < len(gzipMagic) {
				r.in.discard(len(b))
				return false
			}
			r.in.discard(len(b) - len(gzipMagic) + 1)
			continue
		}
		r.in.discard(i)
		if r.in.off < limit && isMemberStart(r.in.peek(memberPeek)) {
			return true
		}
		r.in.discard(1)
	}
	return false
}

// nextMember reads the next record of a gzip-per-record stream: one gzip
// member.
func (r *Reader) nextMember() (Record, int64, error) {
	if !r.synced {
		r.synced = true
		end := int64(math.MaxInt64)
		if r.src.End > 0 {
			end = r.src.End
		}
		if !r.syncMember(end) {
			return r.endOfInput(r.in.off)
		}
	}
	off := r.in.off
	if len(r.in.peek(1)) == 0 {
		return r.endOfInput(off)
	}
	// A member starting past the split is the next split's; junk there
	// follows this split's last member, and is reported here (the next
	// split's first sync skips it).
	if r.ended(off) && isMemberStart(r.in.peek(memberPeek)) {
		return Record{}, off, io.EOF
	}
	if !bytes.HasPrefix(gzipMagic, r.in.peek(len(gzipMagic))) { // (a prefix of it at the end: a cut member)
		r.in.discard(1)
		where := "the next one"
		if !r.syncMember(math.MaxInt64) {
			where = "the end of the file"
		}
		r.skipped += r.in.off - off
		return Record{}, off, r.bad(off, "", "no gzip member starts here: skipped %d bytes to %s", r.in.off-off, where)
	}
	cr := countingReader{&r.in}
	var err error
	if r.zr == nil {
		r.zr, err = gzip.NewReader(cr)
	} else {
		err = r.zr.Reset(cr)
	}
	if err != nil {
		return Record{}, off, r.memberError(off, err)
	}
	r.zr.Multistream(false)
	r.member.reset(r.zr, 0)
	rec, err := r.memberRecord(off)
	if e := r.finishMember(off); e != nil {
		return Record{}, off, e
	}
	if err != nil {
		r.skipped += r.in.off - off
	}
	return rec, off, err
}

// endOfInput is the end of the stream at off: io.EOF, or the stream's
// error.
func (r *Reader) endOfInput(off int64) (Record, int64, error) {
	if r.in.err != nil && r.in.err != io.EOF {
		return Record{}, off, r.ioError(off, r.in.err)
	}
	return Record{}, off, io.EOF
}

// memberError is the error of the gzip member at off.
func (r *Reader) memberError(off int64, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	var src *dump.SourceError
	if errors.As(err, &src) {
		return fmt.Errorf("warc: reading %s at offset %d: %w", r.src.File, off, err)
	}
	return &TruncatedError{File: r.src.File, Offset: off, Err: fmt.Errorf("gzip member: %w", err)}
}

// memberRecord reads the record of the gzip member at off.
func (r *Reader) memberRecord(off int64) (Record, error) {
	m := &r.member
	if ok, _ := isVersionLine(m.peek(10)); !ok {
		if r.member.err != nil && r.member.err != io.EOF {
			return Record{}, nil // the member's error, reported by finishMember
		}
		return Record{}, r.bad(off, "", "gzip member does not start with a WARC/1.0 or WARC/1.1 version line")
	}
	rec, h, cut, err := r.readRecord(m, off)
	if m.err != nil && m.err != io.EOF {
		return Record{}, nil
	}
	switch {
	case errors.Is(err, errHeaderCut):
		return Record{}, r.bad(off, "", "the gzip member ends inside the record's header")
	case err != nil && !cut:
		return Record{}, err
	case cut:
		var tooLarge *RecordError
		if errors.As(err, &tooLarge) {
			return Record{}, r.bad(off, h.typ, "%s record: Content-Length %d, but the gzip member ends before", h.typ, h.length)
		}
		return Record{}, r.bad(off, h.typ, "%s record: %v: the gzip member ends there", h.typ, err)
	}
	if m.skipSpace() {
		return rec, err
	}
	if ok, _ := isVersionLine(m.peek(10)); ok {
		return Record{}, r.bad(off, h.typ, "%s record: the gzip member holds more than one record", h.typ)
	}
	return Record{}, r.bad(off, h.typ, "%s record: Content-Length %d is short: more bytes follow the block in its gzip member", h.typ, h.length)
}

// finishMember reads the member at off to its end, so that the stream is
// at the next member, and returns the error that ends the stream there, if
// any.
func (r *Reader) finishMember(off int64) error {
	m := &r.member
	if m.err == nil {
		m.skip(1<<63 - 1)
	}
	if m.err != io.EOF {
		return r.memberError(off, m.err)
	}
	return nil
}

// nextStream reads the next record of an uncompressed or decompressed
// stream.
func (r *Reader) nextStream() (Record, int64, error) {
	s := &r.in
	if !r.synced {
		r.synced = true
		if !r.syncAfter() {
			return r.endOfInput(s.off)
		}
	}
	if s.skipSpace() {
		return r.endOfInput(s.off)
	}
	off := s.off
	// A record starting past the split is the next split's; anything
	// else there follows this split's last record, and is reported here
	// (the next split's first sync skips it).
	if r.ended(off) && r.isRecordStart() {
		return Record{}, off, io.EOF
	}
	if ok, prefix := isVersionLine(s.peek(10)); !ok {
		if prefix && s.err != nil {
			return Record{}, off, r.streamCut(off, errHeaderCut)
		}
		where := "the next one"
		if !r.skipToRecord(off) {
			where = "the end of the file"
		}
		return Record{}, off, r.bad(off, "", "no WARC record starts here: skipped %d bytes to %s", s.off-off, where)
	}
	rec, h, cut, err := r.readRecord(s, off)
	var bad *RecordError
	switch {
	case cut && rec.Block != nil:
		return r.cutBlock(rec, h, off, err)
	case cut:
		return Record{}, off, r.streamCut(off, err)
	case errors.As(err, &bad) && !bad.TooLarge:
		s.discard(1) // the version line's first byte: the header did not parse
		r.skipToRecord(off)
		return Record{}, off, err
	case err != nil:
		return Record{}, off, err
	}
	return r.checkNext(rec, h, off)
}

// skipToRecord moves the stream to the next record start, or to its end,
// and counts the bytes from off skipped; it says whether a record starts
// there. It is not bounded by the split: the bytes it skips are counted by
// the split that holds the bad record (the next split starts at the same
// record start).
func (r *Reader) skipToRecord(off int64) bool {
	found := r.scanToRecord(math.MaxInt64)
	r.skipped += r.in.off - off
	return found
}

// cutBlock handles the record at off whose block the stream ends inside,
// rec holding the bytes that were read: if a record starts in them, its
// Content-Length is wrong, it is reported and the stream goes on from
// there; else the stream is truncated.
func (r *Reader) cutBlock(rec Record, h header, off int64, err error) (Record, int64, error) {
	s := &r.in
	s.unread(rec.Block)
	start := s.off
	if !r.scanToRecord(math.MaxInt64) {
		return Record{}, off, r.streamCut(off, err)
	}
	r.skipped += s.off - off
	return Record{}, off, r.bad(off, h.typ, "%s record: Content-Length %d is wrong: the stream ends inside its block, and a record starts %d bytes into it; read on from there", h.typ, h.length, s.off-start)
}

// streamCut reports the stream as truncated inside the record at off, or
// returns its error.
func (r *Reader) streamCut(off int64, err error) error {
	if r.in.err != nil && r.in.err != io.EOF {
		return r.ioError(off, r.in.err)
	}
	return &TruncatedError{File: r.src.File, Offset: off, Err: err}
}

// isSpace reports whether c is white space between records.
func isSpace(c byte) bool { return c == '\r' || c == '\n' || c == ' ' || c == '\t' }

// checkNext checks that the record at off, just read, is followed by the
// end of the stream or by another record; else its Content-Length is
// wrong: it is reported and the stream is moved to the first record start
// in or after its block.
func (r *Reader) checkNext(rec Record, h header, off int64) (Record, int64, error) {
	s := &r.in
	n := 0
	for {
		b := s.peek(n + 1)
		if len(b) <= n {
			s.discard(n)
			return rec, off, nil // the end of the stream
		}
		if !isSpace(b[n]) {
			break
		}
		n++
	}
	if ok, prefix := isVersionLine(s.peek(n + 10)[n:]); ok || prefix && s.err != nil {
		s.discard(n)
		return rec, off, nil
	}
	if terminated(s.peek(4)) && !holdsRecordStart(rec.Block) {
		// The block ends as a record's should, and holds no record:
		// junk follows it, which the next call reports.
		s.discard(n)
		return rec, off, nil
	}
	s.unread(rec.Block)
	r.skipToRecord(off)
	return Record{}, off, r.bad(off, h.typ, "%s record: Content-Length %d is wrong: the bytes after its block are not a WARC record", h.typ, h.length)
}

// terminated reports whether b starts with the two line ends that end a
// record's block (CRLF CRLF, or LF LF).
func terminated(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\r\n\r\n")) || bytes.HasPrefix(b, []byte("\n\n"))
}

// holdsRecordStart reports whether a record starts in b: a version line
// whose header parses.
func holdsRecordStart(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], recordMark)
		if j < 0 {
			return false
		}
		i += j
		if ok, _ := isVersionLine(b[i:]); ok {
			if _, err := parseHeader(b[i:], true); err == nil {
				return true
			}
		}
		i++
	}
}

// syncAfter moves the stream to the first record start after its next
// byte (the byte before a split's start), within the split, and says
// whether there is one.
func (r *Reader) syncAfter() bool {
	if len(r.in.peek(1)) == 0 {
		return false
	}
	r.in.discard(1)
	end := int64(math.MaxInt64)
	if r.src.End > 0 {
		end = r.src.End
	}
	return r.scanToRecord(end)
}

// recordMark starts a record in a stream: a WARC version line.
var recordMark = []byte("WARC/1.")

// scanToRecord moves the stream to the first record start at or after its
// position and before offset limit, a WARC version line whose header
// parses, wherever it is on its line (junk before a record need not end
// with a line feed), and says whether there is one. If there is none, the
// stream is at limit or at its end.
func (r *Reader) scanToRecord(limit int64) bool {
	s := &r.in
	for s.off < limit {
		b := s.peek(chunk)
		if len(b) == 0 {
			return false
		}
		i := bytes.Index(b, recordMark)
		if i >= 0 && s.off+int64(i) < limit {
			s.discard(i)
			if r.isRecordStart() {
				return true
			}
			s.discard(1)
			continue
		}
		adv := len(b)
		if i < 0 && s.err == nil {
			adv -= len(recordMark) - 1 // a mark may start in the last bytes
		}
		s.discard(int(min(int64(max(adv, 1)), limit-s.off)))
	}
	return false
}

// isRecordStart reports whether the stream is at a WARC version line
// followed by a header that parses.
func (r *Reader) isRecordStart() bool {
	s := &r.in
	if ok, _ := isVersionLine(s.peek(10)); !ok {
		return false
	}
	_, err := parseHeader(s.peek(maxHeaderBytes), s.err != nil)
	return err == nil
}

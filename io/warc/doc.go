// Package warc reads web crawls in the WARC format (ISO 28500, WARC 1.0
// and 1.1): the response records of HTML pages, whose main content
// package htmltext extracts, and the conversion records of WET files,
// which are text already. Each becomes a document (document.Page, marked
// Plain) of the corpus named after its file (text.CorpusName: one corpus
// per WARC file, whirlwind.warc.gz → whirlwind). Its page id is its
// record's offset, unique in its file and the same whoever reads it; its
// revision id is 0, its Name the WARC-Record-ID, its URL the
// WARC-Target-URI, its Title the page's <title> (else its URL), its Lang
// the page's language (a conversion's WARC-Identified-Content-Language,
// as an ISO 639-1 code), and its Text the extracted blocks, one line each,
// separated by blank lines, so that text.AppendParagraphs gives the
// sentence splitter one paragraph per block (a single line break between
// a block that ends no sentence and one that starts in lower case would
// join them).
//
// # Parser
//
// The package frames records itself rather than use a WARC library. The
// maintained Go ones do not fit: github.com/internetarchive/gowarc is a
// crawler's library (its module pulls a TLS fingerprinting stack, a DNS
// client, SOCKS, cobra…), github.com/nlnwa/gowarc/v2 pulls Prometheus, and
// neither tells the compressed offset of a record's gzip member, reads
// from an offset to resynchronise, or skips an oversized record without
// buffering it. The format is simple: a version line, header fields, a
// blank line, a block of Content-Length bytes, CRLF CRLF. The HTTP
// response inside a response record is parsed by net/http.ReadResponse
// (chunked transfer coding included); its body is the rest of the block,
// whatever its Content-Length says. Content-Encoding gzip and deflate are
// decoded here (a body declared gzip that is not is taken as it is: some
// crawlers decode and keep the header); others are dead-lettered.
//
// # Offsets and splits
//
// A .warc.gz file as Common Crawl ships it holds a gzip member per record
// (Source.Members): it is read as raw bytes, member by member (gzip with
// Multistream(false) over a byte reader, so that it reads no byte past its
// member), and a record's offset is its member's in the file, the offset
// CDX indexes give. Any other file (uncompressed, or compressed as one
// stream, .gz in one member or .bz2, .xz, .zst) is read as dump.Open
// decompresses it, and offsets are those of the decompressed stream. Plan
// tells a gzip-per-record file by its first member, which must hold one
// record and nothing more.
//
// A gzip-per-record or uncompressed file can be read in splits, in
// parallel (Plan's splitBytes): a split owns the records whose start
// offset is in [Start, End). It reads from the first record start at or
// after Start and reads records while their start is before End, the last
// one whole past End. Without an index a split finds its first record by
// scanning: a gzip member header (1f 8b 08) whose content starts with a
// WARC version line; in an uncompressed file a version line at the start
// of a line whose header parses. With a CDX or CDXJ index (IndexOffsets)
// splits are cut at offsets it lists, and need no scan. A record's block
// holding an uncompressed WARC file (a crawl of a crawl) could mislead the
// scan of an uncompressed file; that of a gzip-per-record file cannot be
// misled so, nor a split cut at indexed offsets.
//
// # Bad input
//
// Bad input is never fatal and never dropped silently: it becomes a dead
// letter naming the file, the record's offset and the reason, and is
// counted (tally.Web):
//
//   - a stream that ends inside a record, or whose gzip member is cut or
//     corrupt, ends the reading: every complete record before it is kept
//     (FilesTruncated);
//   - a record whose Content-Length is wrong is dead-lettered: in a
//     gzip-per-record file its member ends before the block or holds more
//     after it; in a stream the bytes after the block are not a record,
//     and the reader resynchronises on the first record start after the
//     record's header (BadRecords); a bad header, or bytes that are not a
//     record, likewise;
//   - a record over ReadOptions.MaxRecordBytes is skipped without being
//     buffered (TooLarge), and so is a payload whose Content-Encoding
//     decodes to more;
//   - an HTTP response that does not parse is a bad record (BadRecords);
//   - a document that cannot be made, a payload declared HTML that is
//     binary (sniffed as another type than text, or holding a NUL byte
//     outside UTF-16), an unsupported or broken Content-Encoding, a page
//     htmltext cannot decode, a record whose offset exceeds
//     document.MaxKey, is a failed document (PagesFailed).
//
// Records of other types (warcinfo, request, metadata, revisit, resource…)
// are counted (OtherRecords), as are responses whose status is not 200
// (NotOK) and whose payload is not HTML (NotHTML, by its Content-Type,
// else WARC-Identified-Payload-Type, else sniffed): a crawl is mostly
// images and scripts, which is no error.
package warc

package index

// record is what the explorer keeps of a cluster: 64 bytes.
type record struct {
	page    int64  // of its id
	revOrd  uint64 // of its id: revision << ordinalBits | sentence ordinal
	offset  int64  // of its line in its shard's clusters file
	length  uint32 // of its line, without the newline
	refs    uint32 // its articles are Run.refs[refs : refs+nrefs]
	nrefs   uint32
	size    uint32
	pages   uint32
	omitted uint32
	shard   uint32
	minJ    float32
	maxE    float32
	wiki    uint16 // of its id, index into Run.wikis
	kind    uint8  // index into Run.kinds
}

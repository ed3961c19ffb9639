package index

import (
	"bytes"
	"fmt"
	"strconv"
)

// An id's revision and ordinal are packed in one uint64; the pipeline's own
// ids hold 33 and 20 bits.
const (
	ordinalBits = 20
	maxRevision = 1<<(64-ordinalBits) - 1
)

// parseID splits a cluster id, wiki:page_id:rev_id:sentence.
func parseID(id []byte) (wiki []byte, page int64, revOrd uint64, err error) {
	var nums [3]int64
	rest := id
	for i := 2; i >= 0; i-- {
		j := bytes.LastIndexByte(rest, ':')
		if j < 0 {
			return nil, 0, 0, fmt.Errorf("id %q is not wiki:page_id:rev_id:sentence", id)
		}
		if nums[i], err = atoi(rest[j+1:]); err != nil {
			return nil, 0, 0, fmt.Errorf("id %q: %w", id, err)
		}
		rest = rest[:j]
	}
	if len(rest) == 0 || nums[1] > maxRevision || nums[2] >= 1<<ordinalBits {
		return nil, 0, 0, fmt.Errorf("id %q is not wiki:page_id:rev_id:sentence", id)
	}
	return rest, nums[0], uint64(nums[1])<<ordinalBits | uint64(nums[2]), nil
}

// formatID gives back the id parseID parsed.
func formatID(wiki string, page int64, revOrd uint64) string {
	b := make([]byte, 0, len(wiki)+32)
	b = append(b, wiki...)
	b = append(b, ':')
	b = strconv.AppendInt(b, page, 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, revOrd>>ordinalBits, 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, revOrd&(1<<ordinalBits-1), 10)
	return string(b)
}

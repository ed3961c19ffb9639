package categorize

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Digest is a cluster without its members' texts: what the run's cluster
// index keeps of each cluster so that a report can count and a reader can
// filter clusters, and find one's line, without decoding every line.
type Digest struct {
	ID             string
	Category       string
	Size           int
	Pages          int
	MembersOmitted int
	MinJaccard     float64
	MaxEdit        float64
	Articles       []Article // the distinct pages of its members, in member order
}

// Article is a page that has members in a cluster.
type Article struct {
	Wiki   string
	PageID int64
	Title  string
}

// Digest returns the digest of c.
func (c Cluster) Digest() Digest {
	d := Digest{ID: c.ID, Category: c.Category, Size: c.Size, Pages: c.Pages, MembersOmitted: c.MembersOmitted,
		MinJaccard: c.Cohesion.MinJaccard, MaxEdit: c.Cohesion.MaxEdit}
	for _, m := range c.Members {
		a := Article{Wiki: m.Wiki, PageID: m.PageID, Title: m.Title}
		if !containsArticle(d.Articles, a) {
			d.Articles = append(d.Articles, a)
		}
	}
	return d
}

func containsArticle(as []Article, a Article) bool {
	for _, b := range as {
		if b.Wiki == a.Wiki && b.PageID == a.PageID {
			return true
		}
	}
	return false
}

// digestFields is the number of a digest's fields before its articles.
const digestFields = 7

// AppendDigest appends d to dst as one tab-separated row: id, category,
// size, pages, members omitted, min Jaccard, max edit, then wiki, page id
// and title of each article. Text fields are escaped (EscapeField) so a row
// holds no tab, newline or other control byte of its own.
func AppendDigest(dst []byte, d Digest) []byte {
	dst = AppendField(dst, d.ID)
	dst = append(dst, '\t')
	dst = AppendField(dst, d.Category)
	for _, n := range [...]int{d.Size, d.Pages, d.MembersOmitted} {
		dst = append(dst, '\t')
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	for _, f := range [...]float64{d.MinJaccard, d.MaxEdit} {
		dst = append(dst, '\t')
		dst = strconv.AppendFloat(dst, f, 'g', -1, 64)
	}
	for _, a := range d.Articles {
		dst = append(dst, '\t')
		dst = AppendField(dst, a.Wiki)
		dst = append(dst, '\t')
		dst = strconv.AppendInt(dst, a.PageID, 10)
		dst = append(dst, '\t')
		dst = AppendField(dst, a.Title)
	}
	return dst
}

// ParseDigest parses a row written by AppendDigest.
func ParseDigest(row []byte) (Digest, error) {
	f := bytes.Split(row, []byte{'\t'})
	if len(f) < digestFields || (len(f)-digestFields)%3 != 0 {
		return Digest{}, fmt.Errorf("cluster digest of %d fields, want %d and 3 per article", len(f), digestFields)
	}
	var d Digest
	var err error
	d.ID, err = unescapeField(f[0])
	if err == nil {
		d.Category, err = unescapeField(f[1])
	}
	ints := []*int{&d.Size, &d.Pages, &d.MembersOmitted}
	for i := 0; err == nil && i < len(ints); i++ {
		*ints[i], err = strconv.Atoi(string(f[2+i]))
	}
	floats := []*float64{&d.MinJaccard, &d.MaxEdit}
	for i := 0; err == nil && i < len(floats); i++ {
		*floats[i], err = strconv.ParseFloat(string(f[5+i]), 64)
	}
	for i := digestFields; err == nil && i < len(f); i += 3 {
		var a Article
		if a.Wiki, err = unescapeField(f[i]); err != nil {
			break
		}
		if a.PageID, err = strconv.ParseInt(string(f[i+1]), 10, 64); err != nil {
			break
		}
		a.Title, err = unescapeField(f[i+2])
		d.Articles = append(d.Articles, a)
	}
	if err != nil {
		return Digest{}, fmt.Errorf("cluster digest %.60q: %w", row, err)
	}
	return d, nil
}

// AppendField appends s with backslash, tab, newline and every other byte
// below 0x20 escaped: \\, \t, \n, \r and \xHH.
func AppendField(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < 0x20 || c == 0x7f:
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

const hexDigits = "0123456789abcdef"

var errEscape = errors.New("bad escape")

func unescapeField(b []byte) (string, error) {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b), nil
	}
	var sb strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			sb.WriteByte(b[i])
			continue
		}
		if i+1 >= len(b) {
			return "", errEscape
		}
		i++
		switch b[i] {
		case '\\':
			sb.WriteByte('\\')
		case 't':
			sb.WriteByte('\t')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 'x':
			if i+2 >= len(b) {
				return "", errEscape
			}
			v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8)
			if err != nil {
				return "", errEscape
			}
			sb.WriteByte(byte(v))
			i += 2
		default:
			return "", errEscape
		}
	}
	return sb.String(), nil
}

package webcorpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/neardup/neardup/internal/hashmix"
	"github.com/neardup/neardup/io/warc"
)

// Corpus is a built test corpus.
type Corpus struct {
	// WARC is the corpus: a warcinfo record, then one response record per
	// page, each its own gzip member.
	WARC []byte
	// Labels are the truth, one per page, in the order of the WARC.
	Labels []Label
	// Sources are the dumps the pipeline test must read with it.
	Sources []Source
}

// Build builds the corpus cfg describes. It reads the sources and hosts
// under cfg.DataDir; the same cfg gives the same bytes.
func Build(cfg Config) (Corpus, error) {
	b, err := newBuilder(cfg)
	if err != nil {
		return Corpus{}, err
	}
	b.drawChunks()
	var drafts []*draft
	structure := b.structureDrafts(0)
	shuffled := b.shuffledDrafts(len(structure))
	reals := b.realDrafts()
	b.scan()
	b.goodChunks()
	content, err := b.contentDrafts()
	if err != nil {
		return Corpus{}, err
	}
	for i := range content {
		content[i].paras = b.paragraphs(&content[i])
		drafts = append(drafts, &content[i])
	}
	drafts = append(drafts, structure...)
	for _, d := range shuffled {
		if d.matched {
			return Corpus{}, fmt.Errorf("webcorpus: a shuffled negative of %q matches an article", d.label.Vocabulary.Title)
		}
		drafts = append(drafts, d)
	}
	for _, d := range reals {
		if !d.matched {
			drafts = append(drafts, d)
		}
	}
	for _, d := range drafts {
		if d.finish != nil {
			d.finish()
		}
	}
	return b.write(drafts)
}

// write orders the pages by the seed, names them and writes the WARC (and
// the files of cfg.Dir).
func (b *builder) write(drafts []*draft) (Corpus, error) {
	newRNG(b.cfg.Seed, "order").shuffle(len(drafts), func(i, j int) { drafts[i], drafts[j] = drafts[j], drafts[i] })
	var out bytes.Buffer
	w := warc.NewWriter(&out, true)
	start := time.Date(2024, 5, 20, 12, 0, 0, 0, time.UTC)
	info := []byte("software: neardup internal/webcorpus\r\nformat: WARC File Format 1.1\r\n" +
		fmt.Sprintf("description: test corpus of text reuse, seed %d\r\n", b.cfg.Seed))
	if _, err := w.Write(warc.Record{Type: "warcinfo", Fields: []warc.Field{
		{Name: "WARC-Date", Value: start.Format(time.RFC3339)},
		{Name: "WARC-Filename", Value: "web.warc.gz"},
		{Name: "WARC-Record-ID", Value: b.recordID(0)},
		{Name: "Content-Type", Value: "application/warc-fields"},
	}, Block: info}); err != nil {
		return Corpus{}, err
	}
	c := Corpus{Sources: b.cfg.Sources}
	for i, d := range drafts {
		body, err := b.render(d, i)
		if err != nil {
			return Corpus{}, err
		}
		block := warc.HTTPResponse(200, []warc.Field{{Name: "Content-Type", Value: "text/html; charset=utf-8"}}, body)
		if _, err := w.Write(warc.Record{Type: "response", Fields: []warc.Field{
			{Name: "WARC-Target-URI", Value: d.label.URL},
			{Name: "WARC-Date", Value: start.Add(time.Duration(i+1) * time.Minute).Format(time.RFC3339)},
			{Name: "WARC-Record-ID", Value: b.recordID(i + 1)},
			{Name: "Content-Type", Value: "application/http; msgtype=response"},
		}, Block: block}); err != nil {
			return Corpus{}, err
		}
		c.Labels = append(c.Labels, d.label)
	}
	c.WARC = out.Bytes()
	return c, b.save(c)
}

// render returns a page's HTML, naming the page (its URL) first.
func (b *builder) render(d *draft, i int) ([]byte, error) {
	if d.raw != nil {
		return d.raw, nil
	}
	host := b.templates[d.host]
	u, err := url.Parse(host.URL)
	if err != nil {
		return nil, err
	}
	d.label.URL = fmt.Sprintf("%s://%s/articles/%03d-%s", u.Scheme, u.Host, i, slug(d.title))
	return embed(host.Body, d.title, d.label.Lang, d.paras)
}

// slug is a URL path segment of a title.
func slug(title string) string {
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(title)) {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
		if b.Len() > 40 {
			break
		}
	}
	return url.PathEscape(b.String())
}

// recordID is the WARC-Record-ID of the i-th record: a version 4 UUID
// drawn from the seed.
func (b *builder) recordID(i int) string {
	hi := hashmix.Splitmix64(b.cfg.Seed + uint64(2*i+1)*hashmix.Gamma)
	lo := hashmix.Splitmix64(b.cfg.Seed + uint64(2*i+2)*hashmix.Gamma)
	hi = hi&^0xf000 | 0x4000
	lo = lo&^(3<<62) | 1<<63
	return fmt.Sprintf("<urn:uuid:%08x-%04x-%04x-%04x-%012x>", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// save writes web.warc.gz and labels.jsonl to cfg.Dir, if set.
func (b *builder) save(c Corpus) error {
	if b.cfg.Dir == "" {
		return nil
	}
	if err := os.WriteFile(filepath.Join(b.cfg.Dir, "web.warc.gz"), c.WARC, 0o644); err != nil {
		return err
	}
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	enc.SetEscapeHTML(false)
	for _, l := range c.Labels {
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(b.cfg.Dir, "labels.jsonl"), lines.Bytes(), 0o644)
}

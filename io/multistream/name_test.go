package multistream

import "testing"

func TestIndexName(t *testing.T) {
	tests := []struct{ file, want string }{
		{"enwiki-20240601-pages-articles-multistream.xml.bz2", "enwiki-20240601-pages-articles-multistream-index.txt.bz2"},
		{"/dumps/enwiki-20240601-pages-articles-multistream1.xml-p1p41242.bz2", "/dumps/enwiki-20240601-pages-articles-multistream-index1.txt-p1p41242.bz2"},
		{"gs://b/zhwiki-20230101-pages-articles-multistream27.xml-p73394380p74894379.bz2", "gs://b/zhwiki-20230101-pages-articles-multistream-index27.txt-p73394380p74894379.bz2"},
		{"enwiki-20240601-pages-articles1.xml-p1p41242.bz2", ""},                   // a split dump, not multistream
		{"enwiki-20240601-pages-articles-multistream-index.txt.bz2", ""},           // an index
		{"enwiki-20240601-pages-articles-multistream-index1.txt-p1p41242.bz2", ""}, // a part's index
		{"enwiki-20240601-pages-articles-multistream1.xml-p1p41242.bz2.tmp", ""},   // not the dump
		{"enwiki-20240601-pages-articles-multistream.xml", ""},                     // not compressed
		{"enwiki-20240601-pages-articles-multistream1.xml-p1.bz2", ""},             // malformed range
	}
	for _, tt := range tests {
		if got := IndexName(tt.file); got != tt.want {
			t.Errorf("IndexName(%q) = %q, want %q", tt.file, got, tt.want)
		}
	}
}

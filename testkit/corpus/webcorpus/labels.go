package webcorpus

// Kind is the kind of a reuse case.
type Kind string

// The kinds of reuse (Alshomary, chapter 4).
const (
	// Content is a page copying an article's text about the article's own
	// topic, verbatim or lightly edited.
	Content Kind = "content"
	// Structure is a page about another entity written with an article's
	// template phrasing, filled with other names and numbers.
	Structure Kind = "structure"
)

// Page kinds (Label.Page).
const (
	PageVerbatim    = "verbatim"     // one passage copied verbatim
	PageEdited      = "edited"       // one passage copied with light edits
	PageTwoArticles = "two-articles" // passages of two articles
	PageSameArticle = "same-article" // one of two pages copying parts of one article
	PageStructure   = "structure"    // an article's template filled for a made-up entity
	PageReal        = "real"         // a real page, untouched: a negative
	PageShuffled    = "shuffled"     // host boilerplate, words of an article shuffled: a negative
)

// ArticleRef names an article of a source dump.
type ArticleRef struct {
	Wiki   string `json:"wiki"` // as the pipeline names it: document.Site.Wiki of the file
	PageID int64  `json:"page_id"`
	Title  string `json:"title"`
	Lang   string `json:"lang"` // the language of its text (Source.Lang)
	File   string `json:"file"` // Source.File
}

func refOf(a *Article) ArticleRef {
	return ArticleRef{Wiki: a.Wiki, PageID: a.PageID, Title: a.Title, Lang: a.Lang, File: a.File}
}

// Label is the truth about one web page of the corpus.
type Label struct {
	URL  string `json:"url"`
	Page string `json:"page"` // PageVerbatim, ..., PageShuffled
	Lang string `json:"lang"` // the language of its main text (<html lang>)
	// Host is the URL of the real page whose boilerplate it has (its own
	// URL for a real page).
	Host string `json:"host"`
	// Reuses are the reuse cases of the page: empty for a negative.
	Reuses []Reuse `json:"reuses"`
	// HostText are the sentences of the host's own text the page keeps
	// around the copied ones.
	HostText []string `json:"host_text,omitempty"`
	// Vocabulary is, for a shuffled negative, the article whose words it
	// uses.
	Vocabulary *ArticleRef `json:"vocabulary,omitempty"`
}

// Reuse is one reuse case: the page reuses Article.
type Reuse struct {
	Article ArticleRef `json:"article"`
	Kind    Kind       `json:"kind"`
	// Family, for structure reuse, is every article of the source dumps
	// one of the page's template sentences matches (a sentence at
	// character-5-shingle Jaccard ≥ NearDuplicate), Article among them:
	// a case found with any of them is right. Empty for content reuse.
	Family []ArticleRef `json:"family,omitempty"`
	// Copied are the article's sentences the page reuses, in the order of
	// the article.
	Copied []Copied `json:"copied"`
	// PassageEdits are the edits of the passage as a whole (EditSwap,
	// EditDropSentence) with the ordinals they concern.
	PassageEdits []string `json:"passage_edits,omitempty"`
	// Entities, for structure reuse, are the article's names the page
	// replaced (slot fillers and title words); none of them is on the page.
	Entities []string `json:"entities,omitempty"`
}

// Copied is one sentence of an article and what the page made of it.
type Copied struct {
	Ordinal int    `json:"ordinal"` // its ordinal among the article's sentences
	Text    string `json:"text"`    // the article's sentence
	// Page is the sentence as on the page: "" if it was dropped
	// (EditDropSentence).
	Page string `json:"page"`
	// Edits are the edits of the sentence ("word: \"a\" → \"b\""); none
	// for a verbatim copy. A structure sentence's edits are its slots.
	Edits []string `json:"edits,omitempty"`
	// Jaccard is the character-5-shingle Jaccard similarity of Text and
	// Page (0 for a dropped sentence).
	Jaccard float64 `json:"jaccard"`
}

// Negative reports whether the page reuses no article.
func (l Label) Negative() bool { return len(l.Reuses) == 0 }

package categorize

// Knowledge is what a run learned from its own dumps that the rules use
// beyond the members' texts: which names are one entity (the dump's
// redirects and link targets) and which section headings hold citations
// (learned from the sections' lines). The zero Knowledge knows nothing;
// Classify and Compare use it.
type Knowledge struct {
	// Entities tells which names are one entity; nil knows none.
	Entities Entities
	// Sections tells which section headings of a wiki hold citations; nil
	// knows none.
	Sections Sections
	// Corpora are the run's text corpora and web crawls (not wikis), by
	// name: their titles are file paths, URLs or headlines, which name no
	// subject, so the subject rules do not read them. Nil: every member is
	// on a wiki page whose title names its subject.
	Corpora map[string]bool
}

// Entities tells whether two names, as written in a wiki's text, name one
// article: the same page under a redirect, or the targets of links written
// with these anchors.
type Entities interface {
	// SameEntity reports whether names a and b of wiki name one article,
	// and that article's title.
	SameEntity(wiki, a, b string) (article string, ok bool)
}

// Sections tells which section headings of a wiki hold citations.
type Sections interface {
	// IsReference reports whether the section headed section in wiki is a
	// bibliography, a list of references or of sources.
	IsReference(wiki, section string) bool
}

// Mechanism names prefix Evidence.Mechanisms and Comparison.Mechanisms
// entries: what decided, beyond the token rules, as "name: detail".
const (
	MechanismSameEntity       = "same_entity"       // two names resolve to one article: "same_entity: [[Ivory Coast]]"
	MechanismSpelling         = "spelling"          // an unlinked name spelled nearly the same
	MechanismNumberForm       = "number_form"       // one value written two ways
	MechanismAcronym          = "acronym"           // an acronym of a name the other text writes in full: "acronym: DEC = Digital Equipment Corporation"
	MechanismClause           = "clause"            // a negation inside a clause added or dropped: no statement denied
	MechanismQuantity         = "quantity"          // a quantity replaced across a word both texts keep: "quantity: mostly → many"
	MechanismReferenceSection = "reference_section" // a section learned to hold citations
	MechanismSubject          = "subject"           // whose statement it is: same page, or different subjects
)

package categorize

// The word lists below are read-only after initialisation. Keys are lower
// case unless said otherwise.

// set makes a lookup table of words.
func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// functionWords are English articles, prepositions, conjunctions, pronouns,
// auxiliaries and common adverbs: words whose change is copy editing, and
// which are not names when they start a sentence, nor subjects of a page
// title.
var functionWords = set(
	"a", "an", "the", "and", "or", "but", "nor", "so", "yet",
	"of", "in", "on", "at", "to", "for", "with", "by", "from", "as", "into", "onto", "upon",
	"about", "above", "after", "against", "along", "among", "around", "before", "behind",
	"below", "beneath", "beside", "besides", "between", "beyond", "during", "except", "inside",
	"near", "off", "out", "outside", "over", "past", "since", "through", "throughout", "till",
	"toward", "towards", "under", "until", "up", "via", "within", "without", "per",
	"although", "because", "if", "though", "unless", "whereas", "whether", "while",
	"when", "where", "which", "who", "whom", "whose", "what", "why", "how", "that",
	"this", "these", "those", "there", "here", "then", "than",
	"i", "me", "my", "we", "us", "our", "you", "your", "he", "him", "his", "she", "her",
	"it", "its", "they", "them", "their", "one", "ones",
	"is", "are", "was", "were", "be", "been", "being", "am",
	"has", "have", "had", "having", "do", "does", "did",
	"can", "could", "may", "might", "must", "shall", "should", "will", "would",
	"not", "no", "also", "only", "just", "very", "too", "even", "still", "already",
	"often", "usually", "always", "never", "sometimes", "however", "thus", "therefore",
	"such", "both", "either", "neither", "each", "every", "all", "any", "some", "most",
	"more", "many", "much", "few", "other", "another", "same",
)

// months are month names and their abbreviations.
var months = set(
	"january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december",
	"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
)

// titleAbbreviations precede a name and so never end a sentence: a sentence
// ending in "Dr." was cut at the abbreviation's period. ("Jr.", "St." and
// "Inc." can end a sentence, so they are not listed.)
var titleAbbreviations = set(
	"mr", "mrs", "ms", "dr", "prof", "gen", "col", "lt", "capt", "sgt",
	"gov", "sen", "rep", "rev", "hon", "pres", "mt", "ft",
)

// publisherWords (as written, capitalised) name publishers in citations.
var publisherWords = set(
	"Press", "Verlag", "Publishing", "Publishers", "Publications", "Editions", "Éditions",
	"Books", "Edizioni", "Editorial",
)

// identifierWords introduce identifiers that only citations carry.
var identifierWords = set("isbn", "issn", "doi", "arxiv", "pmid", "pmc", "oclc", "jstor", "bibcode", "lccn")

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

// union makes a lookup table of the words of the tables ms.
func union(ms ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, m := range ms {
		for w := range m {
			out[w] = true
		}
	}
	return out
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
	// Prepositions in -ing and -ed, which otherwise pass for names when
	// they start a sentence ("Following his death", "Compared with").
	"following", "according", "including", "regarding", "concerning", "excluding",
	"considering", "during", "compared",
)

// participlePrepositions follow a participle that opens a sentence
// ("Located in", "Inspired by"); as written, lower case.
var participlePrepositions = set("by", "in", "at", "on", "from", "with", "to", "for", "as", "into", "near", "after")

// personalPronouns stand for a name mentioned before: "It" and "Alabama",
// "she" and "Merkel" name the same thing.
var personalPronouns = set(
	"he", "him", "his", "she", "her", "hers", "it", "its", "they", "them", "their", "theirs",
)

// Quantity classes of the quantifiers and of the modifiers of a number
// ("nearly 90%", "over 7,000"). Two phrases of different classes make
// different claims about how many: "most of" and "nearly all of", "several
// refuges" and "a refuge". Words of one class are interchangeable ("about",
// "approximately").
var quantityClass = map[string]string{
	"no": "none", "none": "none",
	"few":  "few",
	"some": "some", "several": "some",
	"many": "many", "much": "many", "numerous": "many",
	"most": "most",
	"all":  "all", "every": "all", "each": "all", "entire": "all", "whole": "all",
	"half": "half",
	// Adverbs of frequency and extent say how often or how much of it is
	// so: "often" and "usually", "mostly" and "many" are other claims.
	"rarely": "few", "seldom": "few",
	"sometimes": "some", "occasionally": "some",
	"often": "many", "frequently": "many", "commonly": "many",
	"usually": "most", "mostly": "most", "mainly": "most", "largely": "most", "generally": "most", "typically": "most",
	"always": "all",
}

// quantityModifiers qualify the number or quantifier that follows them.
var quantityModifiers = map[string]string{
	"about": "approx", "approximately": "approx", "around": "approx", "roughly": "approx",
	"some": "approx", "circa": "approx", "estimated": "approx",
	"nearly": "below", "almost": "below", "under": "below", "less": "below", "fewer": "below",
	"over": "above", "more": "above", "exceeding": "above",
	"exactly": "exact", "only": "exact", "just": "exact", "merely": "exact", "solely": "exact",
	"least": "at_least", "most": "at_most",
}

// negations deny the statement they are part of.
var negations = set("not", "never", "no", "none", "neither", "nor", "nothing", "nobody", "without")

// monthAbbreviations are the abbreviations of month names.
var monthAbbreviations = set("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")

// months are month names and their abbreviations.
var months = union(monthAbbreviations, set(
	"january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december",
))

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

package htmltext

// The fates of a block (Block.Fate), in the order of the steps that decide
// them.
const (
	fateKept        = "kept"
	fateNav         = "nav"         // inside navigation markup
	fateAside       = "aside"       // inside secondary-content markup, and not long prose
	fateBoilerplate = "boilerplate" // the densitometric classifier
	fateShort       = "short"       // fewer than MinTokens words
	fateHeader      = "header"      // before the first main-content paragraph (Algorithm 4)
	fateFooter      = "footer"      // after the last one
	fateUnmerged    = "unmerged"    // still short after merging (Algorithm 1)
)

// Thresholds of the densitometric classifier: Kohlschütter, Fankhauser
// and Nejdl (2010), Algorithm 2, the decision tree Boilerpipe's
// DensityRulesClassifier implements.
const (
	maxLinkDensity     = 0.333333 // above: a link list, boilerplate
	maxPrevLinkDensity = 0.555556 // above: the block follows a link list
	minTextDensity     = 9        // above: prose rather than a short line
	minNextDensity     = 10
	minPrevDensity     = 4
	minNextAfterLinks  = 11
)

// Secondary-content markup (footer, aside, comments) is dropped unless its
// block is prose: at least proseWords words with a link density of at most
// proseLinkDensity. markupShare is the share of a block's words that must
// be inside such markup for it to count.
const (
	proseWords       = 40
	proseLinkDensity = 0.1
	markupShare      = 0.5
)

// maxProseLinkDensity is the link density up to which a block of prose
// (a sentence that passes Algorithm 4's test of main content) is content
// whatever its neighbours: the paragraphs of Wikipedia and of biographies
// link a third to a half of their words, which the densitometric
// classifier, tuned on news, takes for link lists.
const maxProseLinkDensity = 2.0 / 3

// classify sets the Fate of each block: fateKept if it is content,
// otherwise why it is not. isProse is Algorithm 4's test of main content.
func classify(blocks []Block, isProse func(string) bool) {
	var empty Block
	for i := range blocks {
		prev, next := &empty, &empty
		if i > 0 {
			prev = &blocks[i-1]
		}
		if i+1 < len(blocks) {
			next = &blocks[i+1]
		}
		blocks[i].Fate = fate(prev, &blocks[i], next, isProse)
	}
}

func fate(prev, curr, next *Block, isProse func(string) bool) string {
	switch {
	case curr.Nav > markupShare:
		return fateNav
	case curr.Aside > markupShare && !(curr.Words >= proseWords && curr.LinkDensity <= proseLinkDensity):
		return fateAside
	case curr.LinkDensity <= maxProseLinkDensity && isProse(curr.Text):
		return fateKept
	case !isContent(prev, curr, next):
		return fateBoilerplate
	}
	return fateKept
}

// isContent is the densitometric classifier's decision tree over the
// link and text densities of a block and its neighbours.
func isContent(prev, curr, next *Block) bool {
	if curr.LinkDensity > maxLinkDensity {
		return false
	}
	if prev.LinkDensity > maxPrevLinkDensity {
		return next.TextDensity > minNextAfterLinks
	}
	if curr.TextDensity <= minTextDensity {
		if next.TextDensity <= minNextDensity {
			return prev.TextDensity > minPrevDensity
		}
		return true
	}
	return next.TextDensity != 0
}

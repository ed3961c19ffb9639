package reuse

import (
	"github.com/neardup/neardup/transforms/passage"
)

// example is a hand-made case: a web page's sentences matched one to one,
// in order, with an article's.
type example struct {
	name         string
	title        string // the article's
	web, article []string
	sharePage    float64
	shareArticle float64
	kind         Kind
	rule         Rule
}

// The examples: the thesis's Figure 4.3 (structure), copies with light
// edits in English, Ukrainian and Greek (content), a Ukrainian template
// about another village (structure), and others for the remaining rules.
var examples = []example{
	{
		name:  "Figure 4.3 lower box: villages of two counties",
		title: "Niedźwiedzie, Zgierz County",
		web: []string{
			"Zimna Woda is a village in the administrative district of Gmina Pisz, within Pisz County, Warmian-Masurian Voivodeship, in northern Poland.",
			"It lies approximately south-east of Pisz and east of the regional capital Olsztyn.",
		},
		article: []string{
			"Niedźwiedzie is a village in the administrative district of Gmina Zgierz, within Zgierz County, Łódź Voivodeship, in central Poland.",
			"It lies approximately north-west of Zgierz and north-west of the regional capital Łódź.",
		},
		sharePage: 0.4, shareArticle: 0.67, kind: Structure, rule: RuleSubject,
	},
	{
		name:  "Figure 4.3 upper box: neighbouring villages",
		title: "Jaworzno, Opole Voivodeship",
		web: []string{
			"Słowików is a village in the administrative district of Gmina Rudniki, within Olesno County, Opole Voivodeship, in south-western Poland.",
			"It lies approximately 5 kilometres east of Rudniki, 14 km north-east of Olesno, and 58 km north-east of the regional capital Opole.",
		},
		article: []string{
			"Jaworzno is a village in the administrative district of Gmina Rudniki, within Olesno County, Opole Voivodeship, in south-western Poland.",
			"It lies approximately 4 kilometres north-east of Rudniki, 15 km north-east of Olesno, and 57 km north-east of the regional capital Opole.",
		},
		sharePage: 0.8, shareArticle: 1, kind: Structure, rule: RuleSubject,
	},
	{
		name:  "Figure 4.3 lower box, the subject's sentence unmatched",
		title: "Niedźwiedzie, Zgierz County",
		web: []string{
			"It lies approximately south-east of Pisz and east of the regional capital Olsztyn.",
		},
		article: []string{
			"It lies approximately north-west of Zgierz and north-west of the regional capital Łódź.",
		},
		sharePage: 0.2, shareArticle: 0.33, kind: Structure, rule: RuleEntities,
	},
	{
		name:  "template sentence with other numbers",
		title: "Nowa Wieś, Gmina Rudniki",
		web: []string{
			"The village has a population of 245 people and lies at an elevation of 312 metres.",
		},
		article: []string{
			"The village has a population of 1,204 people and lies at an elevation of 198 metres.",
		},
		sharePage: 0.3, shareArticle: 0.5, kind: Structure, rule: RuleH2,
	},
	{
		name:  "copied paragraph, lightly edited",
		title: "Gondiswil",
		web: []string{
			"Gondiswil is a municipality in the administrative district of Oberaargau in the canton of Bern in Switzerland.",
			"It is first mentioned in 1201 as Gundoltswile, when the local church was given to the monastery of St. Urban.",
			"The village lies on the border with the canton of Lucerne, in the valley of the Rot, and most of its people work in farming.",
			"In 2000 it had a population of about 700 people.",
		},
		article: []string{
			"Gondiswil is a municipality in the administrative district of Oberaargau in the canton of Bern in Switzerland.",
			"It is first mentioned in 1201 as Gundoltswile, when the local church was given to the monastery of St. Urban.",
			"The village lies on the border with the canton of Lucerne, in the valley of the Rot, and most of its residents work in agriculture.",
			"As of 2000, it had a population of 712.",
		},
		sharePage: 0.25, shareArticle: 0.5, kind: Content, rule: RuleH1,
	},
	{
		name:  "copied paragraph in Ukrainian",
		title: "Золочів",
		web: []string{
			"Золочів — місто у Львівській області України, адміністративний центр Золочівського району.",
			"Розташоване на річці Золочівка за 64 км на схід від Львова.",
			"У місті є Золочівський замок, збудований у XVII столітті королем Яном III Собеським.",
		},
		article: []string{
			"Золочів — місто у Львівській області України, адміністративний центр Золочівського району.",
			"Розташоване на річці Золочівка за 64 км на схід від Львова.",
			"У місті є Золочівський замок, збудований у XVII столітті Якубом Собеським.",
		},
		sharePage: 0.1, shareArticle: 0.3, kind: Content, rule: RuleH1,
	},
	{
		name:  "copied paragraph in Greek",
		title: "Ναύπλιο",
		web: []string{
			"Το Ναύπλιο είναι πόλη της Πελοποννήσου και πρωτεύουσα της Περιφερειακής Ενότητας Αργολίδας.",
			"Υπήρξε η πρώτη πρωτεύουσα του νεότερου ελληνικού κράτους από το 1823 έως το 1834.",
			"Στην πόλη δεσπόζει το κάστρο του Παλαμηδίου, χτισμένο από τους Ενετούς.",
		},
		article: []string{
			"Το Ναύπλιο είναι πόλη της Πελοποννήσου και πρωτεύουσα της Περιφερειακής Ενότητας Αργολίδας.",
			"Υπήρξε η πρώτη πρωτεύουσα του νεότερου ελληνικού κράτους από το 1823 έως το 1834.",
			"Πάνω από την πόλη δεσπόζει το κάστρο του Παλαμηδίου, που χτίστηκε από τους Ενετούς.",
		},
		sharePage: 0.05, shareArticle: 0.2, kind: Content, rule: RuleWeb10, // an edit early in the last sentence breaks most of its 10-grams
	},
	{
		name:  "template sentence about another village, in Ukrainian",
		title: "Підлісся (Золочівський район)",
		web: []string{
			"Новосілки — село в Україні, у Золочівському районі Львівської області.",
			"Населення становить 312 осіб.",
			"Орган місцевого самоврядування — Ожидівська сільська рада.",
		},
		article: []string{
			"Підлісся — село в Україні, у Золочівському районі Львівської області.",
			"Населення становить 245 осіб.",
			"Орган місцевого самоврядування — Білокамінська сільська рада.",
		},
		sharePage: 0.6, shareArticle: 1, kind: Structure, rule: RuleSubject,
	},
	{
		name:  "mirror of a whole article",
		title: "Gondiswil",
		web: []string{
			"Gondiswil is a municipality in the administrative district of Oberaargau in the canton of Bern in Switzerland.",
			"It is first mentioned in 1201 as Gundoltswile.",
		},
		article: []string{
			"Gondiswil is a municipality in the administrative district of Oberaargau in the canton of Bern in Switzerland.",
			"It is first mentioned in 1201 as Gundoltswile.",
		},
		sharePage: 0.9, shareArticle: 1, kind: Content, rule: RuleWeb10,
	},
}

// line is the example as passage.Find writes it, the web page as a.
func (e example) line() passage.Line {
	l := passage.Line{
		A:       passage.Document{ID: "cc:100:0", Wiki: "cc", PageID: 100, Doc: "<urn:uuid:1>", URL: "https://www.example.org/p", Title: "Page", First: 3, Last: 3 + len(e.web) - 1, Sentences: len(e.web)},
		B:       passage.Document{ID: "enwiki:7:70", Wiki: "enwiki", PageID: 7, RevID: 70, Title: e.title, First: 0, Last: len(e.article) - 1, Sentences: len(e.article)},
		Matched: len(e.web), MeanJaccard: 0.5,
	}
	for i := range e.web {
		l.Matches = append(l.Matches, passage.Match{A: 3 + i, B: i, Jaccard: 0.5, TextA: e.web[i], TextB: e.article[i]})
	}
	return l
}

func (e example) pair() passage.DocPair {
	return passage.DocPair{A: "cc:100:0", TitleA: "Page", B: "enwiki:7:70", TitleB: e.title, Passages: 1, Matched: int64(len(e.web)), ShareA: e.sharePage, ShareB: e.shareArticle}
}

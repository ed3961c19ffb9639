package wikitext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// isReferenceSection reports whether a heading with the cleaned text title
// at the given level starts a section of bibliography or citation
// material. Combined titles such as "Notes and references" or
// "Literatur und Weblinks" qualify when every part does.
func isReferenceSection(title []byte, level int) bool {
	var buf [64]byte
	var t string
	if len(title) <= len(buf) && isASCII(title) {
		n := copy(buf[:], title)
		for i := range n {
			buf[i] = toLower(buf[i])
		}
		t = string(buf[:n])
	} else {
		t = strings.ToLower(string(title))
	}
	t = strings.TrimRight(strings.TrimSpace(t), ":.")
	if isReferencePart(t, level) {
		return true
	}
	// Split at separators (", " "/" "&"...) and conjunctions (" and "...).
	parts, start := 0, 0
	for i := 0; i <= len(t); {
		end, next := -1, 0
		if i == len(t) {
			end, next = i, i+1
		} else {
			r, size := utf8.DecodeRuneInString(t[i:])
			if isTitleSeparator(r) {
				end, next = i, i+size
			} else if r == ' ' {
				w := i + 1
				for w < len(t) && t[w] != ' ' {
					w++
				}
				if w < len(t) && isConjunction(t[i+1:w]) {
					end, next = i, w+1
				}
			}
			if end < 0 {
				i += size
				continue
			}
		}
		if part := strings.TrimSpace(t[start:end]); part != "" {
			if !isReferencePart(part, level) {
				return false
			}
			parts++
		}
		start, i = next, next
	}
	return parts > 1
}

func isTitleSeparator(r rune) bool {
	switch r {
	case ',', ';', '/', '&', '、', '·', '+':
		return true
	}
	return false
}

func isConjunction(w string) bool {
	switch w {
	case "and", "und", "et", "y", "e", "i", "en", "и", "і", "και", "och",
		"og", "ja", "a", "és", "ve", "dan", "và", "ou", "or", "oder", "o":
		return true
	}
	return false
}

// isReferencePart reports whether t (lower case) names reference material
// on its own. A trailing parenthetical such as "(Auswahl)" is ignored.
func isReferencePart(t string, level int) bool {
	if open := strings.LastIndexByte(t, '('); open > 0 && strings.HasSuffix(t, ")") {
		t = strings.TrimRightFunc(t[:open], unicode.IsSpace)
	}
	switch referenceTitle(t) {
	case referenceAlways:
		return true
	case referenceTopLevel:
		// "Literature" is a bibliography at the top level but often a
		// prose subsection of "Culture".
		return level <= 2
	}
	return false
}

type referenceKind uint8

const (
	referenceNot referenceKind = iota
	referenceAlways
	referenceTopLevel
)

func referenceTitle(t string) referenceKind {
	switch t {
	case "references", "reference", "refs", "notes", "footnotes", "endnotes",
		"citations", "sources", "bibliography", "select bibliography",
		"selected bibliography", "further reading", "additional reading",
		"suggested reading", "recommended reading", "external links",
		"external link", "links", "web links", "weblinks", "works cited",
		"cited works", "publications", "selected publications",
		"major publications", "selected works", "works", "major works",
		"list of works", "general references", "specific references",
		"cited sources", "primary sources", "secondary sources",
		"other sources", "inline citations", "reference list",
		"notes and references", "references and notes", "citations and notes",
		// German
		"einzelnachweise", "quellen", "anmerkungen", "fußnoten", "belege",
		"quellenangaben", "nachweise", "schriften", "werke", "referenzen",
		"literaturverzeichnis", "publikationen", "veröffentlichungen",
		// French
		"références", "bibliographie", "liens externes", "lien externe",
		"ouvrages", "œuvres", "principaux ouvrages", "pour approfondir",
		"notes et références",
		// Spanish, Portuguese, Italian, Catalan, Galician
		"referencias", "bibliografía", "enlaces externos", "notas", "fuentes",
		"obras", "publicaciones", "referências", "bibliografia",
		"ligações externas", "fontes", "publicações", "leitura adicional",
		"leitura complementar", "note", "collegamenti esterni", "fonti",
		"opere", "pubblicazioni", "riferimenti", "referències",
		"enllaços externs", "fonts", "obres", "publicacions",
		"ligazóns externas",
		// Dutch, Polish
		"bronnen", "referenties", "externe links", "externe link", "noten",
		"voetnoten", "bronvermelding", "publicaties", "werken",
		"verzamelde werken", "przypisy", "linki zewnętrzne", "źródła",
		"publikacje", "uwagi",
		// Russian, Ukrainian, Greek
		"примечания", "ссылки", "источники", "публикации", "сочинения",
		"библиография", "труды", "примітки", "посилання", "джерела",
		"бібліографія", "праці", "публікації", "παραπομπές", "βιβλιογραφία",
		"εξωτερικοί σύνδεσμοι", "σημειώσεις", "πηγές", "αναφορές",
		// Esperanto, Breton, Kannada
		"referencoj", "bibliografio", "eksteraj ligiloj", "notoj", "fontoj",
		"verkoj", "listo de verkoj", "notennoù", "levrlennadur", "daveennoù",
		"daveoù", "liammoù diavaez", "mammennoù", "ಉಲ್ಲೇಖ", "ಉಲ್ಲೇಖಗಳು",
		"ಬಾಹ್ಯ ಕೊಂಡಿಗಳು", "ಹೊರಗಿನ ಸಂಪರ್ಕಗಳು", "ಆಧಾರಗಳು",
		// Chinese, Japanese, Korean
		"参考文献", "參考文獻", "参考资料", "參考資料", "外部链接", "外部連結",
		"外部鏈接", "注释", "註釋", "注釋", "脚注", "腳註", "延伸阅读", "延伸閱讀",
		"来源", "來源", "参考网址", "參考網址", "参考书目", "參考書目", "註記",
		"注记", "参考", "參考", "书目", "書目", "出典", "関連文献", "外部リンク",
		"注釈", "각주", "참고 문헌", "외부 링크", "참고 자료", "주석",
		// Nordic, Finnish, Czech, Turkish, Hungarian
		"referenser", "källor", "externa länkar", "noter", "vidare läsning",
		"referanser", "kilder", "eksterne lenker", "eksterne henvisninger",
		"fotnoter", "henvisninger", "lähteet", "aiheesta muualla", "viitteet",
		"kirjallisuutta", "externí odkazy", "poznámky", "odkazy", "kaynakça",
		"dış bağlantılar", "notlar", "kaynaklar", "források", "jegyzetek",
		"további információk",
		// Indonesian, Vietnamese, Arabic, Hebrew, Persian
		"referensi", "pranala luar", "catatan", "daftar pustaka",
		"bacaan lanjutan", "tham khảo", "chú thích", "liên kết ngoài",
		"đọc thêm", "مراجع", "المراجع", "وصلات خارجية", "مصادر", "المصادر",
		"هوامش", "הערות שוליים", "קישורים חיצוניים", "לקריאה נוספת", "מקורות",
		"منابع", "پیوند به بیرون", "پانویس":
		return referenceAlways
	case "literature", "literatur", "literatura", "literatuur", "littérature",
		"letteratura", "literaturo", "литература", "література", "λογοτεχνία",
		"irodalom", "kirjallisuus", "litteratur", "edebiyat":
		return referenceTopLevel
	}
	return referenceNot
}

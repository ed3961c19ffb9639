package dump

import "testing"

// TestParsersAgree runs both page parsers on edge cases of the subset the
// fast one takes: it must take exactly the cases marked fast, and then agree
// with encoding/xml.
func TestParsersAgree(t *testing.T) {
	wrap := func(text string) string {
		return "<page><title>T</title><id>1</id><revision><id>2</id><text>" + text + "</text></revision></page>"
	}
	tests := []struct {
		name string
		page string
		fast bool
	}{
		{"plain", wrap("hello"), true},
		{"predefined entities", wrap("&lt;&gt;&amp;&quot;&apos;"), true},
		{"decimal reference", wrap("&#233;&#0065;"), true},
		{"hex reference", wrap("&#x4E2D;&#X4E2D;"), false},
		{"max rune", wrap("&#x10FFFF;"), true},
		{"nul reference", wrap("&#0;"), false},
		{"surrogate reference", wrap("&#xD800;"), false},
		{"unknown entity", wrap("&nbsp;"), false},
		{"entity without semicolon", wrap("&amp"), false},
		{"bare ampersand", wrap("a & b"), false},
		{"cdata end in text", wrap("a]]>b"), false},
		{"brackets then escaped gt", wrap("a]]&gt;b"), true},
		{"gt alone", wrap("a > b"), true},
		{"U+FFFE", wrap("a\uFFFEb"), false},
		{"U+FFFD", wrap("a\uFFFDb"), true},
		{"tab and newline", wrap("a\tb\nc"), true},
		{"carriage return", wrap("a\r\nb"), false},
		{"control character", wrap("a\x1fb"), false},
		{"DEL", wrap("a\x7fb"), true},
		{"comment", wrap("a<!-- c -->b"), false},
		{"cdata", wrap("<![CDATA[x]]>"), false},
		{"processing instruction", wrap("<?pi x?>"), false},
		{"nested element in text", wrap("a<b>c</b>d"), true},
		{"self-closing text", "<page><title>T</title><id>1</id><revision><id>2</id><text/></revision></page>", true},
		{"attributes", `<page><title a="1" b='2' c = "3">T</title><id>1</id></page>`, true},
		{"duplicate attribute", `<page><title a="1" a="2">T</title><id>1</id></page>`, true},
		{"attribute without space", `<page><title a="1"b="2">T</title><id>1</id></page>`, false},
		{"unquoted attribute", `<page><title a=1>T</title><id>1</id></page>`, false},
		{"lt in attribute", `<page><title a="<">T</title><id>1</id></page>`, false},
		{"prefixed attribute", `<page><title xml:space="preserve">T</title><id>1</id></page>`, true},
		{"two colons in attribute", `<page><title a:b:c="1">T</title><id>1</id></page>`, false},
		{"prefixed element", `<page><mw:title>T</mw:title><id>1</id></page>`, false},
		{"redirect title", `<page><title>T</title><id>1</id><redirect title="A &amp; B"/></page>`, true},
		{"prefixed redirect title", `<page><title>T</title><id>1</id><redirect x:title="A"/></page>`, true},
		{"redirect title with tab", "<page><title>T</title><id>1</id><redirect title=\"A\tB\"/></page>", true},
		{"space in end tag", "<page><title>T</title \n><id>1</id></page >", true},
		{"mismatched end tag", "<page><title>T</titl><id>1</id></page>", false},
		{"names with digits, dots, dashes", "<page><title>T</title><id>1</id><x1.a-b/></page>", true},
		{"name starting with digit", "<page><title>T</title><id>1</id><1a/></page>", false},
		{"non-ASCII name", "<page><title>T</title><id>1</id><é/></page>", false},
		{"text after root", "<page><title>T</title><id>1</id></page>x", false},
		{"second root", "<page><title>T</title><id>1</id></page><page></page>", false},
		{"unclosed", "<page><title>T</title><id>1</id>", false},
		{"missing id", "<page><title>T</title></page>", true},
		{"bad id", "<page><title>T</title><id>1x</id></page>", true},
		{"id with spaces", "<page><title>T</title><id>\n 7 \n</id></page>", true},
		{"two revisions", "<page><title>T</title><id>1</id><revision><id>2</id><text>a</text></revision>" +
			"<revision><id>3</id></revision></page>", true},
		{"id inside contributor", "<page><title>T</title><id>1</id><revision><contributor><id>9</id></contributor>" +
			"<id>2</id></revision></page>", true},
		{"text outside revision", "<page><title>T</title><id>1</id><text>x</text></page>", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkParsersAgree(t, []byte(tt.page)); got != tt.fast {
				t.Errorf("fast parser took it: %v, want %v", got, tt.fast)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	var p pageParser
	f, err := p.parse([]byte("<page><title>T</title><ns>-1</ns><id>1</id><revision><contributor><id>9</id></contributor>" +
		"<id>2</id><text>a</text></revision><revision><id>3</id></revision></page>"))
	want := pageFields{id: 1, revID: 3, ns: -1, hasNS: true, title: "T"}
	if err != nil || f != want {
		t.Errorf("got %+v, %v; want %+v", f, err, want)
	}
}

func TestSalvage(t *testing.T) {
	tests := []struct {
		page  string
		id    int64
		title string
	}{
		{"<page><title>A &amp; B</title><ns>0</ns><id>5</id><revision><id>6</id>", 5, "A & B"},
		{"<page><title>Broken &amp</title><revision><id>6</id></revision><id>5</id>", 0, "Broken &amp"},
		{"<page><title>X<y</title><id>-3</id>", 0, ""},
		{"<page><title>\xff</title><id> 8 </id>", 8, "\uFFFD"},
		{"<page><title>Cut", 0, ""},
		{"", 0, ""},
	}
	for _, tt := range tests {
		id, title := salvage([]byte(tt.page))
		if id != tt.id || title != tt.title {
			t.Errorf("salvage(%q) = %d, %q; want %d, %q", tt.page, id, title, tt.id, tt.title)
		}
	}
}

func TestNamespaceOf(t *testing.T) {
	namespaces := map[string]int{"Talk": 1, "User talk": 3, "Wikipedia": 4}
	tests := []struct {
		title string
		want  int
	}{
		{"Talk:Foo", 1},
		{"talk:Foo", 1},
		{"User talk:Bar:Baz", 3},
		{"Foo", 0},
		{":Foo", 0},
		{"Star Wars: A New Hope", 0},
		{"Wikipedia:About", 4},
	}
	for _, tt := range tests {
		if got := namespaceOf(tt.title, namespaces); got != tt.want {
			t.Errorf("namespaceOf(%q) = %d, want %d", tt.title, got, tt.want)
		}
	}
	if got := namespaceOf("Talk:Foo", nil); got != 0 {
		t.Errorf("without siteinfo: %d, want 0", got)
	}
}

func TestParseNamespaces(t *testing.T) {
	got := parseNamespaces([]byte(`<siteinfo><namespaces><namespace key="0" /><namespace key="1"> Talk </namespace>` +
		`<namespace key="-1">Special</namespace></namespaces></siteinfo>`))
	if len(got) != 2 || got["Talk"] != 1 || got["Special"] != -1 {
		t.Errorf("got %v", got)
	}
	if got := parseNamespaces([]byte(`<siteinfo><namespaces><namespace key="x">`)); got != nil {
		t.Errorf("malformed siteinfo gave %v, want nil", got)
	}
}

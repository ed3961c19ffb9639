package web

import "testing"

func TestWikiURL(t *testing.T) {
	const en = "https://en.wikipedia.org/wiki/Main_Page"
	for _, tc := range []struct{ base, title, want string }{
		{en, "Lake Orsel", "https://en.wikipedia.org/wiki/Lake_Orsel"},
		{en, "AC/DC", "https://en.wikipedia.org/wiki/AC/DC"},
		{en, "What? (film)", "https://en.wikipedia.org/wiki/What%3F_%28film%29"},
		{en, "100% Love", "https://en.wikipedia.org/wiki/100%25_Love"},
		{en, "AT&T", "https://en.wikipedia.org/wiki/AT&T"},
		{en, "C#", "https://en.wikipedia.org/wiki/C%23"},
		{en, "Talk:Foo bar", "https://en.wikipedia.org/wiki/Talk:Foo_bar"},
		{en, `<script>alert("x")</script>`, "https://en.wikipedia.org/wiki/%3Cscript%3Ealert%28%22x%22%29%3C/script%3E"},
		{"https://el.wikipedia.org/wiki/Πύλη:Κύρια", "Ποταμός Αχελώος",
			"https://el.wikipedia.org/wiki/%CE%A0%CE%BF%CF%84%CE%B1%CE%BC%CF%8C%CF%82_%CE%91%CF%87%CE%B5%CE%BB%CF%8E%CE%BF%CF%82"},
		{"https://ja.wikipedia.org/wiki/%E3%83%A1%E3%82%A4%E3%83%B3%E3%83%9A%E3%83%BC%E3%82%B8", "東京駅",
			"https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC%E9%A7%85"},
		{"https://sample.invalid/wiki/Main_Page#top", "Lindfeld", "https://sample.invalid/wiki/Lindfeld"},
		{"http://localhost/w/index.php?title=Main_Page", "Lake Orsel & co", "http://localhost/w/index.php?title=Lake_Orsel_%26_co"},
		{"", "Lake Orsel", ""},
		{"javascript:alert(1)//x/", "Lake Orsel", ""},
		{"https://example.org", "Lake Orsel", ""},
		{"file:///wiki/Main_Page", "Lake Orsel", ""},
	} {
		if got := WikiURL(tc.base, tc.title); got != tc.want {
			t.Errorf("WikiURL(%q, %q) = %q, want %q", tc.base, tc.title, got, tc.want)
		}
	}
}

func TestPaths(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{clusterPath("enwiki:12:345:6"), "/cluster/enwiki:12:345:6"},
		{clusterPath("my wiki/x:1:2:3"), "/cluster/my%20wiki%2Fx:1:2:3"},
		{articlePath("elwiki", 877), "/article/elwiki/877"},
		{articlePath("a/b?", 1), "/article/a%2Fb%3F/1"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}

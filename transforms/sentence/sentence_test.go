package sentence

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/neardup/neardup/testkit/testshared"
)

var splitTests = []struct {
	name string
	text string
	want []string
}{
	// Basics.
	{"empty", "", nil},
	{"only spaces", "  \n\t\u00a0 ", nil},
	{"no terminator", "Hello world", []string{"Hello world"}},
	{"two sentences", "This is one. This is two.", []string{"This is one.", "This is two."}},
	{"trimmed", "  One.   Two.  ", []string{"One.", "Two."}},
	{"unterminated tail", "First. second part. Third part", []string{"First. second part.", "Third part"}},
	{"bang and question", "Stop! Who goes there? Me.", []string{"Stop!", "Who goes there?", "Me."}},
	{"lower-case continues", "He paused. and then left.", []string{"He paused. and then left."}},
	{"semicolon", "One; Two; Three.", []string{"One; Two; Three."}},
	{"multiple terminators", "Really?! Yes!!! Fine.", []string{"Really?!", "Yes!!!", "Fine."}},
	{"white space kinds", "One.\nTwo.\tThree.\u00a0Four.", []string{"One.", "Two.", "Three.", "Four."}},
	{"digit starts sentence", "It ended in 2008. 2009 was better.", []string{"It ended in 2008.", "2009 was better."}},
	{"title case", "Ok. ǅemal came.", []string{"Ok.", "ǅemal came."}},
	{"invalid UTF-8", "Bad \xff byte. Next one.", []string{"Bad \xff byte.", "Next one."}},

	// Quotes and brackets.
	{"closing quote", `He said "Stop." Then he left.`, []string{`He said "Stop."`, "Then he left."}},
	{"curly closing quote", "She asked “Why?” Nobody answered.", []string{"She asked “Why?”", "Nobody answered."}},
	{"quote then lower case", `"Why?" he asked.`, []string{`"Why?" he asked.`}},
	{"bracketed sentence", "(See below.)", []string{"(See below.)"}},
	{"bracketed sentence inside", "Results improved (see below.) Then we stopped.", []string{"Results improved (see below.)", "Then we stopped."}},
	{"opening quote", `He left. "Why?" she asked.`, []string{"He left.", `"Why?" she asked.`}},
	{"opening bracket", "He left. (It was late.) We stayed.", []string{"He left.", "(It was late.)", "We stayed."}},
	{"opening quote then lower case", `He left. "why" she asked.`, []string{`He left. "why" she asked.`}},
	{"Spanish inverted marks", "Hola. ¿Cómo estás? ¡Bien!", []string{"Hola.", "¿Cómo estás?", "¡Bien!"}},
	{"German quotes", "Er sagte „Halt.“ Dann ging er.", []string{"Er sagte „Halt.“", "Dann ging er."}},

	// Titles.
	{"exclamation in a title", "Ah! My Goddess is a manga series. It ran long.", []string{"Ah! My Goddess is a manga series.", "It ran long."}},
	{"exclamation in a title mid-sentence", "She starred in Ah! My Goddess and Ranma. Then she left.", []string{"She starred in Ah! My Goddess and Ranma.", "Then she left."}},
	{"exclamation in a German title", "Der Film Good Bye, Lenin! Ein Klassiker lief 2003. Er war gut.", []string{"Der Film Good Bye, Lenin! Ein Klassiker lief 2003.", "Er war gut."}},
	{"exclamation before an opener", "Stop! The Beatles were here.", []string{"Stop!", "The Beatles were here."}},
	{"exclamation before one capitalised word", "Help! Nobody came.", []string{"Help!", "Nobody came."}},
	{"question before one capitalised word", "He wrote Why Do You Think You Think? He clashes with Hank.", []string{"He wrote Why Do You Think You Think?", "He clashes with Hank."}},
	{"question after a lower-case word", "Who was there? John Smith knew.", []string{"Who was there?", "John Smith knew."}},
	{"period before two capitalised words", "He met Smith. John Brown came too.", []string{"He met Smith.", "John Brown came too."}},
	{"year after a title", "Films: What a Widow! (1930) and others. Done.", []string{"Films: What a Widow! (1930) and others.", "Done."}},
	{"year after a quoted question", "Есе «Що таке поступ?» (1903) — огляд. Далі.", []string{"Есе «Що таке поступ?» (1903) — огляд.", "Далі."}},
	{"clause number after a sentence", "Article 67. (1) The Bundestag can act.", []string{"Article 67.", "(1) The Bundestag can act."}},
	{"bracketed word after a sentence", "He left. (It was late.) We stayed.", []string{"He left.", "(It was late.)", "We stayed."}},

	// Ellipses and punctuation-only sentences.
	{"ellipsis then upper case", "Wait... Then it happened.", []string{"Wait...", "Then it happened."}},
	{"ellipsis then lower case", "Wait... then it happened.", []string{"Wait... then it happened."}},
	{"ellipsis character", "Wait… Then it happened.", []string{"Wait…", "Then it happened."}},
	{"leading ellipsis", "... And then nothing.", []string{"... And then nothing."}},
	{"spaced ellipsis", "He paused . . . Then he spoke.", []string{"He paused . . .", "Then he spoke."}},

	// Initials.
	{"Bruce E. Ivins", "The suspect was Bruce E. Ivins of Maryland.", []string{"The suspect was Bruce E. Ivins of Maryland."}},
	{"J. R. R. Tolkien", "J. R. R. Tolkien wrote it. It sold well.", []string{"J. R. R. Tolkien wrote it.", "It sold well."}},
	{"George W. Bush", "George W. Bush was president. He served two terms.", []string{"George W. Bush was president.", "He served two terms."}},
	{"Cyrillic initials", "Автор — А. С. Пушкин. Он жил давно.", []string{"Автор — А. С. Пушкин.", "Он жил давно."}},
	{"initial at end", "Army microbiologist Bruce E.", []string{"Army microbiologist Bruce E."}},

	// Abbreviations.
	{"Dr. Smith", "Dr. Smith arrived. He sat.", []string{"Dr. Smith arrived.", "He sat."}},
	{"titles", "Mr. Jones met Prof. Lee, Sen. Warren and Lt. Col. Dan Capt. Hook. Done.", []string{"Mr. Jones met Prof. Lee, Sen. Warren and Lt. Col. Dan Capt. Hook.", "Done."}},
	{"title in brackets", "He met (Dr. Who) there.", []string{"He met (Dr. Who) there."}},
	{"title after non-breaking space", "Dr.\u00a0Smith came.", []string{"Dr.\u00a0Smith came."}},
	{"e.g. and i.e.", "Use a tool, e.g. Python, i.e. Something free. Go.", []string{"Use a tool, e.g. Python, i.e. Something free.", "Go."}},
	{"etc. before lower case", "We bought apples, pears, etc. and left.", []string{"We bought apples, pears, etc. and left."}},
	{"etc. before upper case", "We bought apples, pears, etc. Then we left.", []string{"We bought apples, pears, etc.", "Then we left."}},
	{"cf. and vs.", "Smith vs. Jones was decided (cf. Brown). It set precedent.", []string{"Smith vs. Jones was decided (cf. Brown).", "It set precedent."}},
	{"viz.", "Two kinds, viz. Red and Blue. Done.", []string{"Two kinds, viz. Red and Blue.", "Done."}},
	{"et al.", "As Weissman et al. Show, it works. Good.", []string{"As Weissman et al. Show, it works.", "Good."}},
	{"Al. is a name", "I met Al. He was kind.", []string{"I met Al.", "He was kind."}},
	{"months", "It opened on Jan. 5, 1990. It closed in Sept. 2001 and Dec. 2002.", []string{"It opened on Jan. 5, 1990.", "It closed in Sept. 2001 and Dec. 2002."}},
	{"references", "See No. 5 and vol. 2, pp. 10–12, p. 4, ch. 3, Fig. 7. Done.", []string{"See No. 5 and vol. 2, pp. 10–12, p. 4, ch. 3, Fig. 7.", "Done."}},
	{"No. before a word", "He said No. Then he left.", []string{"He said No.", "Then he left."}},
	{"business", "Shares of Apple Inc. Rose and Acme Co. Ltd. Fell. Done.", []string{"Shares of Apple Inc. Rose and Acme Co. Ltd. Fell.", "Done."}},
	{"places", "They climbed Mt. Everest from St. Louis via Ft. Worth. Done.", []string{"They climbed Mt. Everest from St. Louis via Ft. Worth.", "Done."}},
	{"approximations", "It has approx. 500 residents, est. 1850. Built ca. 1900 by c. 40 men.", []string{"It has approx. 500 residents, est. 1850.", "Built ca. 1900 by c. 40 men."}},
	{"Ph.D. is not an acronym", "She earned a Ph.D. She then taught.", []string{"She earned a Ph.D.", "She then taught."}},
	{"quoted abbreviation ends", `The sign said "Dr." Then it fell.`, []string{`The sign said "Dr."`, "Then it fell."}},
	{"possessive after acronym", "The U.S.'s Army. Done.", []string{"The U.S.'s Army.", "Done."}},
	{"page in brackets", "He wrote it (Smith, pg. 12). It sold.", []string{"He wrote it (Smith, pg. 12).", "It sold."}},
	{"edited book", "In Essays, 2nd ed. (Cambridge: CUP, 1990), he argued. It was new.", []string{"In Essays, 2nd ed. (Cambridge: CUP, 1990), he argued.", "It was new."}},
	{"Ed. is a name", "I met Ed. He was kind.", []string{"I met Ed.", "He was kind."}},
	{"German Nr. in English text", "Published in Heft Nr. 8 of the series. Done.", []string{"Published in Heft Nr. 8 of the series.", "Done."}},
	{"abbreviation alone in brackets", "Juoņs Gleizds (m. 2010) was a photographer. He lived long.", []string{"Juoņs Gleizds (m. 2010) was a photographer.", "He lived long."}},
	{"Cyrillic abbreviation in brackets", "Донька Наталія (нар. 1939) — історик. Вона жила в Москві.", []string{"Донька Наталія (нар. 1939) — історик.", "Вона жила в Москві."}},
	{"Greek abbreviation in brackets", "Ζουν στη Σερβία (περ. 100.000) και αλλού. Άλλοι όχι.", []string{"Ζουν στη Σερβία (περ. 100.000) και αλλού.", "Άλλοι όχι."}},
	{"Greek page locator", "Μεσαιωνικά 5 (1996), σελ. 403-459. Άλλο βιβλίο.", []string{"Μεσαιωνικά 5 (1996), σελ. 403-459.", "Άλλο βιβλίο."}},
	{"Ukrainian issue locator", "Актуальні проблеми. — Вип. 18. — Кривий Ріг, 2017.", []string{"Актуальні проблеми. — Вип. 18. — Кривий Ріг, 2017."}},
	{"short word before a number and a word", "It was signed into law. 21 other states followed.", []string{"It was signed into law.", "21 other states followed."}},
	{"short word before a number with a comma", "It was a small car. 1,000 of them were sold.", []string{"It was a small car.", "1,000 of them were sold."}},
	{"short word before a percentage", "More than men. 60% of students are women.", []string{"More than men.", "60% of students are women."}},
	{"legal v.", "In Dred Scott v. Sandford the Court ruled. It was 1857.", []string{"In Dred Scott v. Sandford the Court ruled.", "It was 1857."}},
	{"Cyrillic legal v.", "Дело Иванов v. Петров было громким. Оно закончилось.", []string{"Дело Иванов v. Петров было громким.", "Оно закончилось."}},
	{"born b.", "Jane Doe (b. 1950) is a writer. She lives in Paris.", []string{"Jane Doe (b. 1950) is a writer.", "She lives in Paris."}},
	{"Roe v. Wade", "The ruling in Roe v. Wade came in 1973. It was overturned.", []string{"The ruling in Roe v. Wade came in 1973.", "It was overturned."}},
	{"Cyrillic year abbreviation ends a sentence", "Населення складало 9 937 628 осіб у 2011 р. Густота населення висока.", []string{"Населення складало 9 937 628 осіб у 2011 р.", "Густота населення висока."}},
	{"Vietnamese one-letter word", "Bà sinh ra ở Mỹ Tho, có truyền thống Đông y. Nguyễn Văn Thiệu là chồng bà.", []string{"Bà sinh ra ở Mỹ Tho, có truyền thống Đông y.", "Nguyễn Văn Thiệu là chồng bà."}},
	{"list marker after a short word", "Không đoàn kết với bọn phản quốc. 2. Sự đoàn kết thành thực.", []string{"Không đoàn kết với bọn phản quốc.", "2. Sự đoàn kết thành thực."}},
	{"single letter after a lower-case word", "У яких пишуть одну н. Крім того, вони інші.", []string{"У яких пишуть одну н.", "Крім того, вони інші."}},
	{"Cyrillic page с.", "Київ, 2009, с. 375. Далі інше.", []string{"Київ, 2009, с. 375.", "Далі інше."}},
	{"single letter before an opener", "This holds for all x. Then f is zero.", []string{"This holds for all x.", "Then f is zero."}},
	{"initial before an opener", "He was born in X. This town is small.", []string{"He was born in X.", "This town is small."}},
	{"initial before an opener and a name", "Quê quán ở P. An Bình, Hậu Giang.", []string{"Quê quán ở P. An Bình, Hậu Giang."}},
	{"initial before an initial that is an opener", "A. A. Milne wrote it. It sold well.", []string{"A. A. Milne wrote it.", "It sold well."}},
	{"initial before a name", "Malcolm X. Little was born in Omaha.", []string{"Malcolm X. Little was born in Omaha."}},
	{"initial after a given name before an opener", "Frey, Sylvia R. The British Soldier in America (1981).", []string{"Frey, Sylvia R. The British Soldier in America (1981)."}},
	{"initial before a name after a lower-case word", "It was written by J. Smith in 1990.", []string{"It was written by J. Smith in 1990."}},
	{"letter before an opener", "It is written by the symbol Z. The number is unique.", []string{"It is written by the symbol Z.", "The number is unique."}},

	// Dotted acronyms.
	{"U.S. Army", "He joined the U.S. Army in 1990.", []string{"He joined the U.S. Army in 1990."}},
	{"U.S. then sentence opener", "He lived in the U.S. The next year he moved.", []string{"He lived in the U.S.", "The next year he moved."}},
	{"U.S. at end", "He moved to the U.S.", []string{"He moved to the U.S."}},
	{"U.K. and U.N.", "The U.K. Government asked the U.N. Council. It agreed.", []string{"The U.K. Government asked the U.N. Council.", "It agreed."}},
	{"a.m. before a name", "We met at 9 a.m. Tuesday.", []string{"We met at 9 a.m. Tuesday."}},
	{"p.m. then sentence opener", "It ended at 5 p.m. It was late.", []string{"It ended at 5 p.m.", "It was late."}},
	{"opener must be a whole word", "He flew to the U.S. Theodore met him.", []string{"He flew to the U.S. Theodore met him."}},

	// Numbers, addresses.
	{"40.4%", "Of the land 40.4% is used for crops. The rest is forest.", []string{"Of the land 40.4% is used for crops.", "The rest is forest."}},
	{"decimals", "Pi is 3.14 roughly. It grew by 1.5 million.", []string{"Pi is 3.14 roughly.", "It grew by 1.5 million."}},
	{"versions and sections", "Install v2.0.1 now. See section 4.2.1 for details.", []string{"Install v2.0.1 now.", "See section 4.2.1 for details."}},
	{"section number at end", "See section 2.3. The rest follows.", []string{"See section 2.3.", "The rest follows."}},
	{"URL and e-mail", "Visit www.example.com or write to a@b.org for help. Thanks.", []string{"Visit www.example.com or write to a@b.org for help.", "Thanks."}},
	{"URL at end of sentence", "Visit www.example.com. Then call.", []string{"Visit www.example.com.", "Then call."}},
	{"German ordinal date", "Am 3. Oktober 1990 kam die Einheit. Das war gut.", []string{"Am 3. Oktober 1990 kam die Einheit.", "Das war gut."}},
	{"ordinal before a non-month", "Er wurde 3. Dann ging er.", []string{"Er wurde 3.", "Dann ging er."}},
	{"year before a month", "Es war 1990. Oktober kam.", []string{"Es war 1990.", "Oktober kam."}},
	{"reference", "Neotropical Ichthyology 11 (1): 73-80.", []string{"Neotropical Ichthyology 11 (1): 73-80."}},

	// Other scripts.
	{"Japanese", "これはペンです。あれは本です。", []string{"これはペンです。", "あれは本です。"}},
	{"Japanese with space", "これはペンです。 あれは本です。", []string{"これはペンです。", "あれは本です。"}},
	{"Japanese quotation continues", "「こんにちは。」と彼は言った。次です。", []string{"「こんにちは。」と彼は言った。", "次です。"}},
	{"Chinese marks", "你好吗？我很好！谢谢。", []string{"你好吗？", "我很好！", "谢谢。"}},
	{"Chinese quotations", "他说：“你好。”“再见。”", []string{"他说：“你好。”", "“再见。”"}},
	{"CJK terminator before Latin", "終わり。next", []string{"終わり。", "next"}},
	{"Hindi danda", "यह एक वाक्य है। यह दूसरा वाक्य है।", []string{"यह एक वाक्य है।", "यह दूसरा वाक्य है।"}},
	{"double danda", "श्लोक एक॥ श्लोक दो॥", []string{"श्लोक एक॥", "श्लोक दो॥"}},
	{"danda without space", "एक।दो।", []string{"एक।", "दो।"}},
	{"Arabic", "هل أنت بخير؟ نعم أنا بخير.", []string{"هل أنت بخير؟", "نعم أنا بخير."}},
	{"Urdu", "یہ ایک جملہ ہے۔ یہ دوسرا جملہ ہے۔", []string{"یہ ایک جملہ ہے۔", "یہ دوسرا جملہ ہے۔"}},
	{"Ethiopic", "ይህ ዓረፍተ ነገር ነው። ሌላ ነው።", []string{"ይህ ዓረፍተ ነገር ነው።", "ሌላ ነው።"}},
	{"Hebrew with period", "זה משפט. זה משפט נוסף.", []string{"זה משפט.", "זה משפט נוסף."}},
	{"Thai with period", "ภาษาไทย. ภาษาลาว.", []string{"ภาษาไทย.", "ภาษาลาว."}},
	{"Cyrillic", "Это первое предложение. Это второе. и не третье.", []string{"Это первое предложение.", "Это второе. и не третье."}},
	{"Greek", "Αυτή είναι η πρώτη. Αυτή είναι η δεύτερη; ναι.", []string{"Αυτή είναι η πρώτη.", "Αυτή είναι η δεύτερη; ναι."}},
	{"Vietnamese", "Tôi là sinh viên. Ông ấy là giáo viên.", []string{"Tôi là sinh viên.", "Ông ấy là giáo viên."}},
	{"accented Latin", "Il est arrivé. À midi il est parti. Élodie aussi.", []string{"Il est arrivé.", "À midi il est parti.", "Élodie aussi."}},
}

func TestSplit(t *testing.T) {
	for _, tt := range splitTests {
		t.Run(tt.name, func(t *testing.T) {
			spans := Split(tt.text)
			checkSpans(t, tt.text, spans)
			if got := texts(tt.text, spans); !slices.Equal(got, tt.want) {
				t.Errorf("Split(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

var languageTests = []struct {
	name string
	lang string
	text string
	want []string
}{
	// Terminators of other scripts.
	{"Armenian full stop", "hy", "Բարև Ձեզ։ Իմ անունն է Արմինե։", []string{"Բարև Ձեզ։", "Իմ անունն է Արմինե։"}},
	{"Armenian full stop, neutral rules", "", "Բարև Ձեզ։ Իմ անունն է Արմինե։", []string{"Բարև Ձեզ։", "Իմ անունն է Արմինե։"}},
	{"Armenian colon", "hy", "Ի՞նչ ես մտածում: Ոչինչ:", []string{"Ի՞նչ ես մտածում:", "Ոչինչ:"}},
	{"colon elsewhere", "en", "Note: This is one.", []string{"Note: This is one."}},
	{"Armenian question mark inside a word", "hy", "Կարող ե՞նք միասին աշխատել։", []string{"Կարող ե՞նք միասին աշխատել։"}},
	{"Greek question mark", "el", "Πού είναι\u037e Εδώ.", []string{"Πού είναι\u037e", "Εδώ."}},
	{"Greek ASCII semicolon", "el", "Πού είναι; Εδώ.", []string{"Πού είναι; Εδώ."}},
	{"Myanmar section", "my", "နေကောင်းလား။ကောင်းပါတယ်။", []string{"နေကောင်းလား။", "ကောင်းပါတယ်။"}},
	{"Myanmar little section", "my", "ကောင်းပါတယ်၊ ကျေးဇူးပါ။", []string{"ကောင်းပါတယ်၊ ကျေးဇူးပါ။"}},
	{"Khmer khan", "km", "ខ្ញុំសុខសប្បាយ។ អរគុណ។", []string{"ខ្ញុំសុខសប្បាយ។", "អរគុណ។"}},
	{"Tibetan shad", "bo", "བཀྲ་ཤིས་བདེ་ལེགས། ཁྱེད་རང་།", []string{"བཀྲ་ཤིས་བདེ་ལེགས།", "ཁྱེད་རང་།"}},
	{"Ethiopic without space", "am", "እንደምን አለህ፧መልካም ቀን።", []string{"እንደምን አለህ፧", "መልካም ቀን።"}},
	{"Sentence_Terminal of a rare script", "", "ᠮᠣᠩᠭᠣᠯ᠃ ᠪᠢᠴᠢᠭ᠃", []string{"ᠮᠣᠩᠭᠣᠯ᠃", "ᠪᠢᠴᠢᠭ᠃"}},
	{"fullwidth full stop", "ja", "値は３．２９です．次です．", []string{"値は３．２９です．", "次です．"}},
	{"Chinese title", "zh", "去看《摔跤吧！爸爸》好吗？好！", []string{"去看《摔跤吧！爸爸》好吗？", "好！"}},

	// No space after the terminator in scripts without case.
	{"Marathi full stop without space", "mr", "हा किल्ला सातारा जिल्ह्यात येते.सज्जनगडाच्या पायथ्याशी गाव आहे.", []string{"हा किल्ला सातारा जिल्ह्यात येते.", "सज्जनगडाच्या पायथ्याशी गाव आहे."}},
	{"Bengali danda without space", "bn", "এটি একটি শহর।এখানে অনেক মানুষ থাকে।", []string{"এটি একটি শহর।", "এখানে অনেক মানুষ থাকে।"}},
	{"Urdu full stop without space", "ur", "یہ ایک جملہ ہے۔یہ دوسرا جملہ ہے۔", []string{"یہ ایک جملہ ہے۔", "یہ دوسرا جملہ ہے۔"}},
	{"question mark without space", "hi", "फ़िल्म कौन?कहाँ? अच्छी थी।", []string{"फ़िल्म कौन?कहाँ?", "अच्छी थी।"}},
	{"Japanese title with an ASCII exclamation", "ja", "映画『飛べ!ダコタ』が公開された。", []string{"映画『飛べ!ダコタ』が公開された。"}},
	{"Japanese period between kana", "ja", "ジョン.スミスが来た。", []string{"ジョン.スミスが来た。"}},
	{"closing quote before a caseless letter", "hi", "उसने कहा “ठीक है.”फिर गया।", []string{"उसने कहा “ठीक है.”फिर गया।"}},
	{"Thai period without space", "th", "ภาษาไทยดีมาก.ภาษาลาวก็ดี.", []string{"ภาษาไทยดีมาก.", "ภาษาลาวก็ดี."}},
	{"Devanagari title of one syllable", "mr", "डॉ.बाबासाहेब आंबेडकर आले.", []string{"डॉ.बाबासाहेब आंबेडकर आले."}},
	{"Devanagari conjunct of one syllable", "mr", "श्री.गणेश आले.", []string{"श्री.गणेश आले."}},
	{"Kannada initials", "kn", "ಎಲ್.ಟಿ.ತಿಮ್ಮಪ್ಪ ಹೆಗಡೆ ಬಂದರು.", []string{"ಎಲ್.ಟಿ.ತಿಮ್ಮಪ್ಪ ಹೆಗಡೆ ಬಂದರು."}},
	{"Kannada full stop without space", "kn", "ಮಾರ್ಪಾಟುಹೊಂದಿದೆ.ಈ ಪ್ರದೇಶವು ದೊಡ್ಡದು.", []string{"ಮಾರ್ಪಾಟುಹೊಂದಿದೆ.", "ಈ ಪ್ರದೇಶವು ದೊಡ್ಡದು."}},
	{"Devanagari dotted era", "mr", "इ.स.१८५७ मध्ये बंड झाले.", []string{"इ.स.१८५७ मध्ये बंड झाले."}},
	{"Bengali page abbreviation", "bn", "পৃ.৩৪ দেখুন।", []string{"পৃ.৩৪ দেখুন।"}},
	{"Thai era abbreviation", "th", "ปี พ.ศ.๒๕๐๐ เป็นปีที่ดี.", []string{"ปี พ.ศ.๒๕๐๐ เป็นปีที่ดี."}},
	{"Devanagari decimal", "mr", "किंमत ३.५ रुपये आहे.", []string{"किंमत ३.५ रुपये आहे."}},
	{"Latin word before Devanagari", "hi", "साइट example.com.भारत पर है।", []string{"साइट example.com.भारत पर है।"}},
	{"Latin abbreviation before a caseless letter", "hi", "Dr.राम आए।", []string{"Dr.राम आए।"}},
	{"Arabic abbreviation without space", "ar", "قال د.أحمد ذلك.", []string{"قال د.أحمد ذلك."}},

	// Abbreviations and openers of each language.
	{"English Co. before an opener", "en", "They met Briggs & Co. It closed.", []string{"They met Briggs & Co.", "It closed."}},
	{"English Co. before a name", "en", "Shares of Acme Co. Rose fell.", []string{"Shares of Acme Co. Rose fell."}},
	{"English pronoun I", "en", "You and I. Did Albert I. Jones come?", []string{"You and I.", "Did Albert I. Jones come?"}},
	{"pronoun I is English", "", "You and I. Did Albert I. Jones come?", []string{"You and I. Did Albert I. Jones come?"}},
	{"letter I before an opener", "", "See annex I. The rest follows.", []string{"See annex I.", "The rest follows."}},
	{"initial I after a name", "", "Ruled by Albert I. The war came.", []string{"Ruled by Albert I. The war came."}},
	{"simple is English", "simple", "You and I. Did it?", []string{"You and I.", "Did it?"}},
	{"German z. B.", "de", "Es gibt z. B. Äpfel. Die sind gut.", []string{"Es gibt z. B. Äpfel.", "Die sind gut."}},
	{"German z. B. before an opener", "de", "Von Filmen (z. B. Das Tagebuch der Anne Frank) bis Horror. Die Stadt.", []string{"Von Filmen (z. B. Das Tagebuch der Anne Frank) bis Horror.", "Die Stadt."}},
	{"German usw. before an opener", "de", "Äpfel, Birnen usw. Die Ernte war gut.", []string{"Äpfel, Birnen usw.", "Die Ernte war gut."}},
	{"German Nr.", "de", "Er trug Nr. 5 im Team. Dann ging er.", []string{"Er trug Nr. 5 im Team.", "Dann ging er."}},
	{"German v. Chr. before an opener", "de", "Um 50 v. Chr. Die Stadt wuchs.", []string{"Um 50 v. Chr.", "Die Stadt wuchs."}},
	{"French av. J.-C.", "fr", "Né en 63 av. J.-C. Auguste régna.", []string{"Né en 63 av. J.-C. Auguste régna."}},
	{"Spanish Sra.", "es", "Saludos a la Sra. Rescia. Gracias.", []string{"Saludos a la Sra. Rescia.", "Gracias."}},
	{"Italian Dott.", "it", "Il Dott. Mesini arrivò. Poi partì.", []string{"Il Dott. Mesini arrivò.", "Poi partì."}},
	{"Russian proф.", "ru", "Уважаемый проф. Семенов пришёл. Он устал.", []string{"Уважаемый проф. Семенов пришёл.", "Он устал."}},
	{"Russian toggled case", "ru", "Там был Проф. Семенов.", []string{"Там был Проф. Семенов."}},
	{"Danish Skt.", "da", "De holdt Skt. Hans i byen. Det var sjovt.", []string{"De holdt Skt. Hans i byen.", "Det var sjovt."}},
	{"Danish co. before an opener", "da", "Spørg Jane og co. De ved det.", []string{"Spørg Jane og co.", "De ved det."}},
	{"Arabic doctor", "ar", "وقال د. ديفيد ذلك. ثم ذهب.", []string{"وقال د. ديفيد ذلك.", "ثم ذهب."}},
	{"German ordinal before a noun", "de", "Im 19. Jahrhundert wuchs sie. Dann nicht.", []string{"Im 19. Jahrhundert wuchs sie.", "Dann nicht."}},
	{"ordinal nouns are German", "en", "He came 19. Jahrhundert is a word.", []string{"He came 19.", "Jahrhundert is a word."}},
	{"Italian elided title", "it", "Sono l'Ing. Mengozzi. È presente l’Avv. Cassioni?", []string{"Sono l'Ing. Mengozzi.", "È presente l’Avv. Cassioni?"}},
	{"elision needs a word after it", "it", "Disse l'. Poi partì.", []string{"Disse l'.", "Poi partì."}},
	{"Spanish Mar. before a day", "es", "Cita: Mar. 23 de Nov. de 2014. Gracias.", []string{"Cita: Mar. 23 de Nov. de 2014.", "Gracias."}},
	{"base language of a variant", "de-at", "Es gibt z. B. Äpfel.", []string{"Es gibt z. B. Äpfel."}},

	// Lists and ellipses.
	{"numbered list", "en", "1. The first item 2. The second item", []string{"1. The first item", "2. The second item"}},
	{"numbered list with parentheses", "en", "1) The first item 2) The second item", []string{"1) The first item", "2) The second item"}},
	{"lettered list", "en", "a. The first b. The second c. The third", []string{"a. The first", "b. The second", "c. The third"}},
	{"bulleted list", "", "• 9. The first • 10. The second", []string{"• 9. The first", "• 10. The second"}},
	{"number out of sequence", "en", "1. The first item 3. The third item", []string{"1. The first item 3.", "The third item"}},
	{"marker before lower case", "en", "1. Page 2. and more", []string{"1. Page 2. and more"}},
	{"German club", "de", "1. FC Köln spielt. Der Verein gewann.", []string{"1. FC Köln spielt.", "Der Verein gewann."}},
	{"no list without a marker first", "en", "See figure 2. The result holds.", []string{"See figure 2.", "The result holds."}},
	{"bullets need a bulleted sentence", "", "Home • About", []string{"Home • About"}},
	{"bracketed ellipsis", "en", `"Bohr [...] used stairways [...]" (Smith 55). Next.`, []string{`"Bohr [...] used stairways [...]" (Smith 55).`, "Next."}},
	{"bracketed ellipsis then period", "en", "He said [...]. Then left.", []string{"He said [...].", "Then left."}},
	{"spaced ellipsis before a word", "en", "The thing is . . . I didn't.", []string{"The thing is . . . I didn't."}},
	{"period then spaced ellipsis", "en", "Compounds. . . . The practice went on. . . .", []string{"Compounds.", ". . . The practice went on. . . ."}},
}

func TestSplitLanguages(t *testing.T) {
	for _, tt := range languageTests {
		t.Run(tt.name, func(t *testing.T) {
			spans := RulesFor(tt.lang).Split(tt.text)
			checkSpans(t, tt.text, spans)
			if got := texts(tt.text, spans); !slices.Equal(got, tt.want) {
				t.Errorf("RulesFor(%q).Split(%q)\n got %q\nwant %q", tt.lang, tt.text, got, tt.want)
			}
		})
	}
}

func TestRulesFor(t *testing.T) {
	tests := []struct{ a, b string }{
		{"simple", "en"},
		{"de-at", "de"},
		{"zh-yue", "zh"},
		{"be-tarask", "be"},
		{"xx", ""},
		{"ja", ""},
	}
	for _, tt := range tests {
		if RulesFor(tt.a) != RulesFor(tt.b) {
			t.Errorf("RulesFor(%q) != RulesFor(%q)", tt.a, tt.b)
		}
	}
	if RulesFor("en") == RulesFor("") || RulesFor("de") == RulesFor("") {
		t.Error("en or de have the language-neutral rules")
	}
	for _, code := range ruleCodes {
		if r := RulesFor(code); r != RulesFor(code) || r == nil {
			t.Errorf("RulesFor(%q) is not cached", code)
		}
	}
}

func TestAppendSplitAppends(t *testing.T) {
	prefix := []Span{{7, 9}}
	got := AppendSplit(prefix, "One. Two.")
	want := []Span{{7, 9}, {0, 4}, {5, 9}}
	if !slices.Equal(got, want) {
		t.Errorf("AppendSplit = %v, want %v", got, want)
	}
}

func TestAppendSplitAllocs(t *testing.T) {
	text := "Dr. Smith joined the U.S. Army in 1990. He left in 2008! Why? これはペンです。あれは本です。"
	dst := make([]Span, 0, 16)
	allocs := testing.AllocsPerRun(100, func() {
		dst = AppendSplit(dst[:0], text)
	})
	if allocs != 0 {
		t.Errorf("AppendSplit with capacity: %v allocs, want 0", allocs)
	}
	if len(dst) != 5 {
		t.Errorf("got %d sentences, want 5", len(dst))
	}
	for _, code := range ruleCodes {
		r := RulesFor(code)
		if allocs := testing.AllocsPerRun(100, func() { dst = r.AppendSplit(dst[:0], text) }); allocs != 0 {
			t.Errorf("RulesFor(%q).AppendSplit with capacity: %v allocs, want 0", code, allocs)
		}
	}
}

// TestLinear feeds adversarial megabyte inputs; a quadratic splitter would
// not finish within the test timeout.
func TestLinear(t *testing.T) {
	const n = 1 << 18
	tests := []struct {
		text string
		want int
	}{
		{strings.Repeat("Ab. ", n), n},
		{strings.Repeat("A. ", n), 1},
		{strings.Repeat("U.S. ", n), 1},
		{strings.Repeat("a.", n) + " The end.", 2},
		{strings.Repeat("x", 4*n) + ". The end.", 2},
		{"Go. " + strings.Repeat("(", 4*n), 1},
		{strings.Repeat(".", 4*n), 1},
		{strings.Repeat(". ", 2*n), 1},
		{strings.Repeat("。」", n), 1},
		{strings.Repeat("。", n), 1},
		{strings.Repeat("1. a ", n), 1},
		{"1. A" + strings.Repeat(" ", 4*n) + "2. B", 2},
		{strings.Repeat("• ", 2*n), 1},
		{strings.Repeat("• a ", n), n},
		{"• " + strings.Repeat("•", 4*n) + " 1. A", 2},
		{strings.Repeat("a！", n) + "》", -1},
		{strings.Repeat(". . ", n) + "A", 1},
		{strings.Repeat("[...] A ", n), 1},
	}
	for _, tt := range tests {
		spans := Split(tt.text)
		if tt.want >= 0 && len(spans) != tt.want {
			t.Errorf("Split(%.20q...): %d sentences, want %d", tt.text, len(spans), tt.want)
		}
		checkSpans(t, tt.text, spans)
	}
	en := RulesFor("en")
	for _, text := range []string{
		strings.Repeat("and I. ", n),
		"x" + strings.Repeat(" ", 4*n) + "I. A",
		strings.Repeat("Co. It ", n),
	} {
		checkSpans(t, text, en.Split(text))
	}
}

// ruleCodes are language codes with rules of their own, and "" for the
// language-neutral rules.
var ruleCodes = []string{"", "en", "de", "fr", "es", "it", "ru", "da", "ar", "hy"}

func TestTables(t *testing.T) {
	for _, code := range ruleCodes {
		r := RulesFor(code)
		if len(r.abbreviations) == 0 {
			t.Errorf("RulesFor(%q) has no abbreviations", code)
		}
		for word := range r.abbreviations {
			if len(word) > r.maxAbbreviationLen {
				t.Errorf("%s: %q is longer than maxAbbreviationLen %d", code, word, r.maxAbbreviationLen)
			}
			if strings.TrimSpace(word) != word || strings.HasSuffix(word, ".") {
				t.Errorf("%s: abbreviation %q has a space or its final period", code, word)
			}
		}
		for word := range r.openers {
			if len(word) > maxWordLen {
				t.Errorf("%s: opener %q is longer than maxWordLen %d", code, word, maxWordLen)
			}
		}
		for word := range r.ordinals {
			if len(word) > maxWordLen {
				t.Errorf("%s: ordinal noun %q is longer than maxWordLen %d", code, word, maxWordLen)
			}
		}
	}
	for word := range monthNames {
		if len(word) > maxWordLen {
			t.Errorf("month %q is longer than maxWordLen %d", word, maxWordLen)
		}
	}
}

// TestPaperExamples checks that each example sentence printed by the seed
// papers is one sentence, and that any two of them (the first not one of the
// "other" fragments, which the paper's splitter cut at "Bruce E." and
// "U.S.") joined by a space are two.
func TestPaperExamples(t *testing.T) {
	var all, whole []string
	for _, c := range testshared.PaperCases(t) {
		for _, m := range c.Members {
			all = append(all, m.Text)
			if c.Label != "other" {
				whole = append(whole, m.Text)
			}
			if got := texts(m.Text, Split(m.Text)); len(got) != 1 || got[0] != m.Text {
				t.Errorf("%s %q: got %q, want one sentence", c.Label, m.Title, got)
			}
		}
	}
	for _, a := range whole {
		for _, b := range all {
			text := a + " " + b
			spans := Split(text)
			checkSpans(t, text, spans)
			if got := texts(text, spans); !slices.Equal(got, []string{a, b}) {
				t.Errorf("Split(%q)\n got %q\nwant two sentences", text, got)
			}
		}
	}
}

// TestPaperFragments joins the paper's "Bruce E." and "U.S." fragments with
// the sentence that followed them: the joins are single sentences.
func TestPaperFragments(t *testing.T) {
	var fragments []string
	for _, c := range testshared.PaperCases(t) {
		if c.Label == "other" {
			for _, m := range c.Members {
				fragments = append(fragments, m.Text)
			}
		}
	}
	if len(fragments) == 0 {
		t.Fatal("no fragments labelled other")
	}
	for _, f := range fragments {
		text := f + " Ivins worked at the Army lab for 18 years."
		if got := texts(text, Split(text)); len(got) != 1 {
			t.Errorf("Split(%q) = %q, want one sentence", text, got)
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, tt := range splitTests {
		f.Add(tt.text)
	}
	for _, tt := range languageTests {
		f.Add(tt.text)
	}
	for _, tt := range referenceTests {
		f.Add(tt.text)
	}
	f.Add("A. b. C? d! E… 「。」x ।y ؟ z")
	f.Add("• 1. a b. 2.) c 3) d [...] e . . . F. . . . G ։ H: ၊ ።《！》")
	f.Fuzz(func(t *testing.T, text string) {
		for _, code := range ruleCodes {
			r := RulesFor(code)
			spans := r.Split(text)
			checkSpans(t, text, spans)
			if again := r.Split(text); !slices.Equal(spans, again) {
				t.Errorf("%q: Split(%q) is not deterministic: %v then %v", code, text, spans, again)
			}
			var got strings.Builder
			for _, s := range spans {
				got.WriteString(nonSpace(text[s.Start:s.End]))
			}
			if want := nonSpace(text); got.String() != want {
				t.Errorf("%q: Split(%q): sentences hold %q, text holds %q", code, text, got.String(), want)
			}
			checkSpans(t, text, r.AppendSplitReference(nil, text))
		}
	})
}

// checkSpans fails t unless spans are non-empty, increasing,
// non-overlapping, trimmed, and separated by white space only.
func checkSpans(t *testing.T, text string, spans []Span) {
	t.Helper()
	prev := 0
	for i, s := range spans {
		if s.Start < prev || s.End <= s.Start || s.End > len(text) {
			t.Fatalf("span %d %v out of order or empty (previous end %d, len %d)", i, s, prev, len(text))
		}
		if gap := text[prev:s.Start]; strings.TrimFunc(gap, unicode.IsSpace) != "" {
			t.Fatalf("span %d: non-space text %q dropped before it", i, gap)
		}
		sentence := text[s.Start:s.End]
		if strings.TrimFunc(sentence, unicode.IsSpace) != sentence {
			t.Fatalf("span %d %q is not trimmed", i, sentence)
		}
		prev = s.End
	}
	if tail := text[prev:]; strings.TrimFunc(tail, unicode.IsSpace) != "" {
		t.Fatalf("non-space text %q dropped at the end", tail)
	}
}

func texts(text string, spans []Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, text[s.Start:s.End])
	}
	return out
}

// nonSpace returns text without its white-space runes.
func nonSpace(text string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, text)
}

func BenchmarkSplit(b *testing.B) {
	var paragraphs []string
	for _, c := range testshared.PaperCases(b) {
		var p []string
		for _, m := range c.Members {
			p = append(p, m.Text)
		}
		paragraphs = append(paragraphs, strings.Join(p, " "))
	}
	for _, tt := range splitTests {
		if tt.text != "" {
			paragraphs = append(paragraphs, tt.text)
		}
	}
	sentences, bytes := 0, 0
	for _, p := range paragraphs {
		sentences += len(Split(p))
		bytes += len(p)
	}
	b.Run("AppendSplit", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(bytes))
		dst := make([]Span, 0, 64)
		for b.Loop() {
			for _, p := range paragraphs {
				dst = AppendSplit(dst[:0], p)
			}
		}
		reportPerSentence(b, sentences)
	})
	b.Run("Split", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(bytes))
		for b.Loop() {
			for _, p := range paragraphs {
				Split(p)
			}
		}
		reportPerSentence(b, sentences)
	})
}

func reportPerSentence(b *testing.B, sentences int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sentences), "ns/sentence")
}

func ExampleSplit() {
	text := "Army microbiologist Bruce E. Ivins joined the U.S. Army in 1990. He worked at Ft. Detrick. これはペンです。あれは本です。"
	for _, s := range Split(text) {
		fmt.Println(text[s.Start:s.End])
	}
	// Output:
	// Army microbiologist Bruce E. Ivins joined the U.S. Army in 1990.
	// He worked at Ft. Detrick.
	// これはペンです。
	// あれは本です。
}

package synthrun

import (
	"math/rand/v2"
	"strconv"
)

// Words the titles and texts are made of.
var (
	places   = []string{"Lindfeld", "Marren", "Kessel", "Albrun", "Tessau", "Grinwald", "Pradell", "Vorlau", "Orsel", "Varenia", "Aubach", "Brenholt", "Castelmar", "Dunmere", "Elsworth", "Falkirk", "Gorsby", "Halden", "Ivrea", "Jesenice", "Kolding", "Lauria", "Montbard", "Nørreby", "Ostrava", "Pézenas", "Quedlin", "Rovigo", "Sankt Veit", "Tiverton", "Uzès", "Valjevo", "Weilburg", "Ystad", "Zadar", "Ávila", "Łowicz", "São Brás", "Ötztal", "Çorlu"}
	features = []string{"river", "lake", "massif", "abbey", "castle", "railway station", "bridge", "cathedral", "district", "airport", "pass", "glacier", "canal", "island", "valley"}
	given    = []string{"Anna", "Bruce", "Carla", "David", "Elena", "Farid", "Greta", "Hiro", "Ingrid", "José", "Karin", "Luis", "Maria", "Nikolai", "Olga", "Pieter", "Rosa", "Sven", "Tomás", "Yusuf"}
	family   = []string{"Ivins", "Moreau", "Schmidt", "Kowalski", "Okafor", "Tanaka", "Lindqvist", "García", "Rossi", "Novak", "O'Brien", "Van der Berg", "Haddad", "Petrov", "Nakamura", "Dubois"}
	kinds    = []string{"album", "film", "novel", "band", "ship", "song", "horse", "play"}
	greek    = []string{"Αθήνα", "Θεσσαλονίκη", "Πάτρα", "Ηράκλειο", "Λάρισα", "Βόλος", "Ιωάννινα", "Χανιά", "Καβάλα", "Σέρρες", "Ολυμπος", "Αχελώος"}
	greekKin = []string{"Ποταμός", "Λίμνη", "Όρος", "Μονή", "Σιδηροδρομικός σταθμός", "Νομός", "Δήμος"}
	japanese = []string{"東京", "大阪", "京都", "札幌", "名古屋", "福岡", "神戸", "仙台", "広島", "長崎", "奈良", "金沢"}
	jaKin    = []string{"駅", "城", "川", "寺", "空港", "大学", "線", "神社"}
)

func pick(r *rand.Rand, words []string) string { return words[r.IntN(len(words))] }

// title returns a title of a wiki in the style of its language.
func title(r *rand.Rand, lang string) string {
	switch lang {
	case "el":
		return pick(r, greekKin) + " " + pick(r, greek)
	case "ja":
		return pick(r, japanese) + pick(r, jaKin)
	}
	switch r.IntN(7) {
	case 0:
		return pick(r, places) + " (" + pick(r, features) + ")"
	case 1:
		return pick(r, given) + " " + pick(r, family)
	case 2:
		return "List of " + pick(r, features) + "s in " + pick(r, places)
	case 3:
		return strconv.Itoa(1800+r.IntN(225)) + " " + pick(r, places) + " flood"
	case 4:
		return pick(r, places) + " " + pick(r, features)
	case 5:
		return pick(r, family) + " (" + pick(r, kinds) + ")"
	}
	return pick(r, places) + "–" + pick(r, places) + " railway"
}

// text returns a sentence of one of a few shapes, with numbers and
// names a member can change.
func text(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return "The " + pick(r, places) + " rises in a cirque below the " + pick(r, places) + " massif, drops through a narrow gorge of grey limestone and joins the " + pick(r, places) + " just downstream of the old town of " + pick(r, places) + "."
	case 1:
		return "Of the agricultural land, " + pct(r) + " is used for growing crops and " + pct(r) + " is pastures, while " + pct(r) + " is used for orchards or vine crops."
	case 2:
		return "As of the census of " + strconv.Itoa(1990+r.IntN(35)) + ", there were " + strconv.Itoa(100+r.IntN(9000)) + " people, " + strconv.Itoa(50+r.IntN(3000)) + " households, and " + strconv.Itoa(20+r.IntN(2000)) + " families residing in the town."
	case 3:
		return pick(r, given) + " " + pick(r, family) + " (born " + strconv.Itoa(1900+r.IntN(100)) + ") is a " + pick(r, []string{"German", "Greek", "Japanese", "Brazilian", "Polish"}) + " " + pick(r, []string{"composer", "footballer", "politician", "painter", "physicist"}) + " who has worked in " + pick(r, places) + " since " + strconv.Itoa(1950+r.IntN(70)) + "."
	}
	return pick(r, family) + ", " + pick(r, given)[:1] + ". (" + strconv.Itoa(1950+r.IntN(70)) + "). The history of " + pick(r, places) + ". " + pick(r, places) + ": University Press. pp. " + strconv.Itoa(1+r.IntN(300)) + "–" + strconv.Itoa(301+r.IntN(300)) + "."
}

func pct(r *rand.Rand) string {
	return strconv.FormatFloat(float64(r.IntN(1000))/10, 'f', 1, 64) + "%"
}

// variant returns text with one number or name changed, as near
// duplicates differ.
func variant(r *rand.Rand, text string) string {
	b := []byte(text)
	for range 8 {
		i := r.IntN(len(b))
		if b[i] >= '0' && b[i] <= '9' {
			b[i] = byte('0' + (int(b[i]-'0')+1+r.IntN(8))%10)
			return string(b)
		}
	}
	return text[:len(text)-1] + " in " + pick(r, places) + "."
}

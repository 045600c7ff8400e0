package catalogbench_test

import (
	"math/rand/v2"
	"strings"
)

// Vocabulary of the generated catalogs. None of it contains the search
// benchmark's term.
var (
	brands    = []string{"Dell", "HP", "Lenovo", "Apple", "Samsung", "Logitech", "Canon", "Brother", "Acer", "Asus", "Fujitsu", "Epson", "Kyocera", "Philips", "Sony", "Bosch", "Makita", "Cisco", "Ubiquiti", "Microsoft"}
	kinds     = []string{"Notebook", "Monitor", "Printer", "Docking Station", "Keyboard", "Mouse", "Headset", "Tablet", "Smartphone", "Projector", "Router", "Switch", "Scanner", "Webcam", "Server", "Drill", "Desk", "Chair"}
	subtitles = []string{"Business edition", "with 3-year warranty", "refurbished", "EU plug", "bundle with accessories", "silver", "black", "for education", ""}
)

func pick(r *rand.Rand, words []string) string { return words[r.IntN(len(words))] }

// modelCode is a model number such as "QX-4821" (capital letters and
// digits only, so it never spells the search term).
func modelCode(r *rand.Rand) string {
	const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
	var b strings.Builder
	for range 2 {
		b.WriteByte(letters[r.IntN(len(letters))])
	}
	b.WriteByte('-')
	for range 4 {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	return b.String()
}

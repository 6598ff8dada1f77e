package contract

// ValidSeller reports whether code is a seller code: 2 to 8 characters, each an upper-case ASCII
// letter or a digit ("LY", "UA", "3K", "STAR1"). An airline names its seller's data file by it;
// the search server checks a search's seller filter and a booking's legs by it.
func ValidSeller(code string) bool { return upperAlnum(code, 2, 8) }

// ValidFlightNumber reports whether number is a flight number: 1 to 16 characters, each an
// upper-case ASCII letter or a digit ("LY001").
func ValidFlightNumber(number string) bool { return upperAlnum(number, 1, 16) }

func upperAlnum(s string, minLen, maxLen int) bool {
	if len(s) < minLen || len(s) > maxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isUpper(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// ValidAlliance reports whether name is an alliance's name: 1 to 64 ASCII letters, digits, '_' or
// '-'. A search server registers alliances by it and a booking's id begins with it, up to a '.'
// (so no alliance name has one); an airline server refuses to run in an alliance whose name it is
// not.
func ValidAlliance(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isUpper(c) && (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

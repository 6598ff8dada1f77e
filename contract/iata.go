package contract

// ValidIATA reports whether code is an IATA airport code: exactly three upper-case ASCII
// letters ("TLV"). A search's src and dst, every airport of a seller's flights and every airport
// of a delegate's answer are held to it.
func ValidIATA(code string) bool {
	return len(code) == 3 && isUpper(code[0]) && isUpper(code[1]) && isUpper(code[2])
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

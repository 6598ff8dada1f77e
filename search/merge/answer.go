package merge

// Answer is the JSON body of a 200 search response (docs/api.md, "Search"). Total counts the
// trips of the whole list (after nonstop and max_price); Trips is the window of it the query's
// offset and limit select (the whole list without a limit).
type Answer struct {
	Query     QueryEcho        `json:"query"`
	Total     int              `json:"total"`
	Trips     []Trip           `json:"trips"`
	Complete  bool             `json:"complete"`
	Alliances []AllianceStatus `json:"alliances"`
}

// QueryEcho repeats the validated query; Servers is present only when a seller filter was given,
// and each control only when it changes the answer: limit when given, offset when not 0, nonstop
// when true, max_price (normalised, "123.40") when given, sort when not price.
type QueryEcho struct {
	Src      string   `json:"src"`
	Dst      string   `json:"dst"`
	Date     string   `json:"date"`
	Servers  []string `json:"servers,omitempty"`
	Limit    int      `json:"limit,omitempty"`
	Offset   int      `json:"offset,omitempty"`
	Nonstop  bool     `json:"nonstop,omitempty"`
	MaxPrice string   `json:"max_price,omitempty"`
	Sort     string   `json:"sort,omitempty"`
}

// Trip is one or two legs; Price is the sum of the legs' prices, with two fraction digits.
type Trip struct {
	Price string `json:"price"`
	Legs  []Leg  `json:"legs"`
}

// Leg is one flight of a trip. Alliance is the name the alliance's delegate registered under.
type Leg struct {
	Flight    string `json:"flight"`
	Seller    string `json:"seller"`
	Alliance  string `json:"alliance"`
	Src       string `json:"src"`
	Dst       string `json:"dst"`
	Departure string `json:"departure"`
	Arrival   string `json:"arrival"`
	Price     string `json:"price"`
	Seats     int    `json:"seats"`
}

// AllianceStatus says whether one registered alliance answered for all of its sellers.
// MissingSellers is never null. Error says why an alliance that did not
// answer at all is incomplete (timeout, SOAP fault, unreachable, malformed answer).
type AllianceStatus struct {
	Name           string   `json:"name"`
	Complete       bool     `json:"complete"`
	MissingSellers []string `json:"missing_sellers"`
	Error          string   `json:"error,omitempty"`
}

package search

// Answer is the JSON body of a 200 search response (API.md, "Search server").
type Answer struct {
	Query     QueryEcho        `json:"query"`
	Trips     []Trip           `json:"trips"`
	Complete  bool             `json:"complete"`
	Alliances []AllianceStatus `json:"alliances"`
}

// QueryEcho repeats the validated query; Servers is present only when a seller filter was given.
type QueryEcho struct {
	Src     string   `json:"src"`
	Dst     string   `json:"dst"`
	Date    string   `json:"date"`
	Servers []string `json:"servers,omitempty"`
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
// MissingSellers is never null. Error, an addition to API.md, says why an alliance that did not
// answer at all is incomplete (timeout, SOAP fault, unreachable, malformed answer).
type AllianceStatus struct {
	Name           string   `json:"name"`
	Complete       bool     `json:"complete"`
	MissingSellers []string `json:"missing_sellers"`
	Error          string   `json:"error,omitempty"`
}

// ErrorBody is the JSON body of every 4xx/5xx answer.
type ErrorBody struct {
	Error string `json:"error"`
}

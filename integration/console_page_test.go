package integration

import "strings"

// What the console test reads from the page (console_page_scripts_test.go).
type consoleResults struct {
	URL          string `json:"url"`
	Complete     string `json:"complete"`
	Completeness string `json:"completeness"`
	Message      string `json:"message"`
	PageInfo     string `json:"pageInfo"`
	Rows         []struct {
		Price    string   `json:"price"`
		Flights  []string `json:"flights"`
		Alliance string   `json:"alliance"`
		Seats    string   `json:"seats"`
	} `json:"rows"`
}

// rendered writes the rows as referenceTrips does: "price FLIGHT>FLIGHT".
func (r consoleResults) rendered() []string {
	out := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = row.Price + " " + strings.Join(row.Flights, ">")
	}
	return out
}

type consolePicture struct {
	Seq       int64             `json:"seq"`
	Status    string            `json:"status"`
	Changes   []string          `json:"changes"`
	Alliances []consoleAlliance `json:"alliances"`
}

type consoleAlliance struct {
	Name     string           `json:"name"`
	Text     string           `json:"text"`
	Machines []consoleMachine `json:"machines"`
	Cells    []struct {
		Machine string `json:"machine"`
		Seller  string `json:"seller"`
		Role    string `json:"role"`
	} `json:"cells"`
}

type consoleMachine struct {
	Name     string `json:"name"`
	State    string `json:"state"`
	Delegate bool   `json:"delegate"`
	Etcd     string `json:"etcd"`
}

func (p consolePicture) alliance(name string) (consoleAlliance, bool) {
	for _, a := range p.Alliances {
		if a.Name == name {
			return a, true
		}
	}
	return consoleAlliance{}, false
}

func (p consolePicture) machine(alliance, name string) (consoleMachine, bool) {
	a, _ := p.alliance(alliance)
	for _, m := range a.Machines {
		if m.Name == name {
			return m, true
		}
	}
	return consoleMachine{}, false
}

type consoleBooking struct {
	Shown   bool              `json:"shown"`
	Status  string            `json:"status"`
	Fields  map[string]string `json:"fields"`
	Message string            `json:"message"`
}

package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/internal/nodetest"
	"flightalliance/search"
)

// chromiumPath is Debian's chromium, which `make deps` installs.
const chromiumPath = "/usr/bin/chromium"

// pageSize is the console's page size the test picks (one of the form's choices).
const pageSize = 10

// TestWebConsole uses the search server's web console in a real headless Chromium, against a real
// search server and a real alliance of three machines: a search typed into the form shows the
// reference's trips, page by page, and its link reproduces it; a trip is held, confirmed and
// cancelled from the page; the live picture shows the machines and their PRIMARY and BACKUP
// sellers as the coordination tree has them, marks a killed machine down without a reload, and
// drops it once the alliance removed it. The page logs no JavaScript error and fetches nothing
// from anywhere but the search server. Every step leaves a screenshot, named in failures.
func TestWebConsole(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("this test drives Debian's chromium at %s, which is missing (`make deps` installs it): %v", chromiumPath, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir, err := filepath.Abs(filepath.Join("testdata", "console"))
	if err != nil {
		t.Fatal(err)
	}
	node := consoleNode(ctx, t, dir)

	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{perDay: 120}, nil)
	a := w.a
	q, want := richestQuery(a.activeData())
	if len(want) <= pageSize {
		t.Fatalf("%v has %d trips: the test wants more than a page of %d", q, len(want), pageSize)
	}
	cheapest := firstLeg(t, a.activeData(), want[0])
	w.waitBookable(cheapest, 90*time.Second)
	eventually(t, 30*time.Second, "the search server answers complete", func() error {
		return checkSearch(w.base, []*testAlliance{a}, []query{q})
	})

	d := startConsoleDriver(ctx, t, node, dir, startChromium(ctx, t), w.base)
	parent := t
	const step = 20 * time.Second

	t.Run("live picture", func(t *testing.T) {
		d.do(t, "open", step, nil)
		d.waitPicture(t, 30*time.Second, "the picture shows m1, m2, m3 and the placement of the tree", func(p consolePicture) error {
			return pictureMatchesTree(ctx, a, p, []string{"m1", "m2", "m3"})
		})
	})

	var page1 consoleResults
	t.Run("search typed into the form", func(t *testing.T) {
		d.decode(t, d.do(t, "search", step, map[string]any{"src": q.src, "dst": q.dst, "date": q.date.String(), "limit": pageSize}), &page1)
		if page1.Complete != "true" {
			t.Fatalf("the answer is not shown complete: %q (%s)", page1.Completeness, d.shots())
		}
		if got := page1.rendered(); len(got) == 0 || got[0] != want[0] || !slices.Equal(got, want[:pageSize]) {
			t.Fatalf("the page shows %d trips %v…, the reference's first %d are %v… (cheapest %q) (%s)", len(got), head(got), pageSize, head(want), want[0], d.shots())
		}
		if wantInfo := fmt.Sprintf("Trips 1–%d of %d", pageSize, len(want)); page1.PageInfo != wantInfo {
			t.Errorf("pager says %q, want %q", page1.PageInfo, wantInfo)
		}
		for _, p := range []string{"src=" + q.src, "dst=" + q.dst, "date=" + q.date.String()} {
			if !strings.Contains(page1.URL, p) {
				t.Errorf("the page's URL %q does not carry %s", page1.URL, p)
			}
		}
	})

	t.Run("book, confirm and cancel from the page", func(t *testing.T) {
		var held, confirmed, cancelled consoleBooking
		d.decode(t, d.do(t, "book", step, map[string]any{"row": 0, "seats": 2, "hold": "10m"}), &held)
		if held.Status != "held" || held.Fields["expires"] == "" || held.Fields["id"] == "" {
			t.Fatalf("after booking a hold the page shows %+v (%s)", held, d.shots())
		}
		if wantPrice := tripPrice(t, want[0], 2); held.Fields["price"] != wantPrice {
			t.Errorf("the hold of 2 seats costs %q on the page, want %q", held.Fields["price"], wantPrice)
		}
		id := held.Fields["id"]
		if got := bookingStatus(ctx, t, w, id); got != "held" {
			t.Fatalf("the API says booking %s is %q, the page said held", id, got)
		}
		d.decode(t, d.do(t, "confirm", step, nil), &confirmed)
		if confirmed.Status != "confirmed" || confirmed.Fields["id"] != id {
			t.Fatalf("after Confirm hold the page shows %+v (%s)", confirmed, d.shots())
		}
		d.decode(t, d.do(t, "cancel", step, nil), &cancelled)
		if cancelled.Status != "cancelled" || cancelled.Fields["id"] != id {
			t.Fatalf("after Cancel booking the page shows %+v (%s)", cancelled, d.shots())
		}
		if got := bookingStatus(ctx, t, w, id); got != "cancelled" {
			t.Fatalf("the API says booking %s is %q, the page said cancelled", id, got)
		}
		w.t = t
		defer func() { w.t = parent }()
		if booked := w.booked(cheapest); booked != 0 {
			t.Errorf("%s has %d seats booked after the cancel, want none", cheapest.Number, booked)
		}
	})

	t.Run("paging and a link that reproduces the search", func(t *testing.T) {
		var page2, linked consoleResults
		d.decode(t, d.do(t, "nextPage", step, nil), &page2)
		if got, w2 := page2.rendered(), want[pageSize:min(2*pageSize, len(want))]; !slices.Equal(got, w2) {
			t.Fatalf("page 2 shows %v…, want %v… (%s)", head(got), head(w2), d.shots())
		}
		d.decode(t, d.do(t, "open", step, map[string]any{"path": page2.URL, "results": true}), &linked)
		if !slices.Equal(linked.rendered(), page2.rendered()) || linked.URL != page2.URL {
			t.Fatalf("opening %s shows %v…, the search it came from showed %v… (%s)", page2.URL, head(linked.rendered()), head(page2.rendered()), d.shots())
		}
	})

	t.Run("a killed machine changes the picture without a reload", func(t *testing.T) {
		d.do(t, "mark", step, map[string]any{"value": "not reloaded"})
		a.kill("m3")
		killed := time.Now()
		d.waitPicture(t, 10*time.Second, "m3 marked down or unreachable", func(p consolePicture) error {
			m, ok := p.machine("star", "m3")
			if !ok || (m.State != "down" && m.State != "unreachable") {
				return fmt.Errorf("m3 is shown %+v", m)
			}
			return nil
		})
		t.Logf("the page marked the killed m3 down %v after kill -9", time.Since(killed).Round(10*time.Millisecond))
		var mark string
		d.decode(t, d.do(t, "readMark", step, nil), &mark)
		if mark != "not reloaded" {
			t.Fatalf("the page was reloaded (its mark is %q) (%s)", mark, d.shots())
		}
		d.waitPicture(t, 90*time.Second, "m3 removed and its sellers placed on m1 and m2", func(p consolePicture) error {
			return pictureMatchesTree(ctx, a, p, []string{"m1", "m2"})
		})
		t.Logf("m3 left the picture %v after kill -9", time.Since(killed).Round(10*time.Millisecond))
	})

	d.do(t, "close", step, nil)
}

// TestWebConsoleOverTLS serves the console over HTTPS in front of a secure alliance (TLS with
// client certificates on every machine): the live picture reads each machine's /status and
// /healthz with the search server's certificate, so every machine shows up, as the tree has it.
func TestWebConsoleOverTLS(t *testing.T) {
	dir := t.TempDir()
	addr := freeAddr(t)
	base := "https://" + addr
	a := prepareAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}}, allianceOpts{secure: true, search: []string{base}})
	startProc(t, dir, "search", "search", append([]string{"--listen", addr}, tlsArgs(issueFiles(t, dir, "search"))...)...)
	for _, n := range a.order {
		a.start(n)
	}
	a.waitSettled(90 * time.Second)

	req, err := http.NewRequest(http.MethodGet, base+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET %s/: %s %q", base, resp.Status, resp.Header.Get("Content-Type"))
	}
	eventually(t, 30*time.Second, "the live picture shows m1 and m2 up, as the tree places the sellers", func() error {
		var pic search.LivePicture
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := getJSON(ctx, base+"/Services/FlightsSearch/alliances", &pic); err != nil {
			return err
		}
		if len(pic.Alliances) != 1 || pic.Alliances[0].Error != "" {
			return fmt.Errorf("picture %+v", pic.Alliances)
		}
		al := pic.Alliances[0]
		tree, err := a.readTree(ctx)
		if err != nil {
			return err
		}
		var names []string
		for _, m := range al.Machines {
			names = append(names, m.Name)
			if m.State != search.StateUp {
				return fmt.Errorf("%s is %s: %s", m.Name, m.State, m.Error)
			}
			e := tree.machines[m.Name]
			if !slices.Equal(m.Primaries, e.Primaries) || !slices.Equal(m.Backups, e.Backups) {
				return fmt.Errorf("%s holds %v and %v, the tree says %v and %v", m.Name, m.Primaries, m.Backups, e.Primaries, e.Backups)
			}
		}
		if !slices.Equal(names, []string{"m1", "m2"}) || !strings.HasPrefix(al.Machines[0].URL, "https://") {
			return fmt.Errorf("machines %+v", al.Machines)
		}
		// The etcd part is read from /status's member field: it breaks if that field's shape does.
		if al.Etcd == nil || !al.Etcd.Quorum || al.Etcd.Leader == "" || !slices.Equal(al.Etcd.Voters, []string{"m1", "m2"}) {
			return fmt.Errorf("etcd %+v, want a quorum, a leader and voters m1 and m2", al.Etcd)
		}
		if al.Round == nil || al.Round.ID == 0 || al.Delegate != "m1" {
			return fmt.Errorf("round %+v, delegate %q", al.Round, al.Delegate)
		}
		return nil
	})
}

// pictureMatchesTree checks the page's picture of star against the coordination tree: the live
// machines, all up, m1 the delegate, and every seller PRIMARY and BACKUP where the tree says.
func pictureMatchesTree(ctx context.Context, a *testAlliance, p consolePicture, live []string) error {
	al, ok := p.alliance("star")
	if !ok {
		return fmt.Errorf("no alliance star in the picture")
	}
	var names []string
	for _, m := range al.Machines {
		names = append(names, m.Name)
		if m.State != "up" {
			return fmt.Errorf("%s is shown %q", m.Name, m.State)
		}
		if m.Delegate != (m.Name == "m1") {
			return fmt.Errorf("%s is shown delegate=%v", m.Name, m.Delegate)
		}
	}
	if !slices.Equal(names, live) {
		return fmt.Errorf("machines shown %v, want %v", names, live)
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	tree, err := a.readTree(rctx)
	if err != nil {
		return err
	}
	if err := checkInvariants(tree, live, a.sellers()); err != nil {
		return fmt.Errorf("the tree is not settled: %w", err)
	}
	shown := map[string]map[string]string{}
	for _, c := range al.Cells {
		if shown[c.Seller] == nil {
			shown[c.Seller] = map[string]string{}
		}
		shown[c.Seller][c.Machine] = c.Role
	}
	for _, s := range a.sellers() {
		if !maps.Equal(shown[s], tree.holders[s]) {
			return fmt.Errorf("seller %s is shown %v, the tree says %v", s, shown[s], tree.holders[s])
		}
	}
	return nil
}

// consoleNode is node, with the playwright-core of dir installed (npm ci, once).
func consoleNode(ctx context.Context, t *testing.T, dir string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core", "package.json")); err != nil {
		return nodetest.Node(ctx, t, dir) // runs npm ci in dir
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: this test runs playwright-core in %s (%v)", dir, err)
	}
	return node
}

// startChromium starts a headless Chromium with a DevTools port, in a process group of its own
// (its helpers die with it), and returns its DevTools WebSocket URL. The test kills the group,
// by its id, when it ends.
func startChromium(ctx context.Context, t *testing.T) string {
	t.Helper()
	profile := t.TempDir()
	args := []string{"--headless", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		"--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check", "--disable-gpu",
		"--disable-dev-shm-usage", "--disable-extensions", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--metrics-recording-only", "--mute-audio"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	cmd := exec.Command(chromiumPath, append(args, "about:blank")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", chromiumPath, err)
	}
	pgid := cmd.Process.Pid
	logPath := filepath.Join(t.TempDir(), "chromium.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = cmd.Wait()
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("--- chromium's log:\n%s", lastBytes(b, 4000))
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		for sc.Scan() {
			fmt.Fprintln(logf, sc.Text())
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case ws := <-found:
		return ws
	case <-time.After(30 * time.Second):
	case <-ctx.Done():
	}
	t.Fatalf("%s did not open its DevTools port within 30s (log %s)", chromiumPath, logPath)
	return ""
}

// consoleDriver is console.js driving the page: one JSON step a line in, one answer a line out.
type consoleDriver struct {
	in      io.WriteCloser
	answers chan string
	shotDir string
	taken   []string
}

type stepAnswer struct {
	OK              bool            `json:"ok"`
	Data            json.RawMessage `json:"data"`
	Error           string          `json:"error"`
	Screenshot      string          `json:"screenshot"`
	ScreenshotError string          `json:"screenshotError"`
	Problems        []string        `json:"problems"`
}

func startConsoleDriver(ctx context.Context, t *testing.T, node, dir, ws, base string) *consoleDriver {
	t.Helper()
	shotDir := filepath.Join(t.TempDir(), "screenshots")
	if err := os.MkdirAll(shotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "console.js", ws, base, shotDir)
	cmd.Dir = dir
	logPath := filepath.Join(t.TempDir(), "console-js.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logf
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start node console.js: %v", err)
	}
	d := &consoleDriver{in: in, answers: make(chan string), shotDir: shotDir}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
		for sc.Scan() {
			d.answers <- sc.Text()
		}
		close(d.answers)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logf.Close()
		if b, _ := os.ReadFile(logPath); t.Failed() && len(b) > 0 {
			t.Logf("--- console.js's stderr:\n%s", lastBytes(b, 4000))
		}
		d.keepScreenshots(t)
	})
	return d
}

// do runs one step and returns its data; a failed step, or any JavaScript error or outside
// request seen meanwhile, fails the test naming the step's screenshot.
func (d *consoleDriver) do(t *testing.T, step string, timeout time.Duration, args map[string]any) json.RawMessage {
	t.Helper()
	msg := map[string]any{"step": step, "timeout": timeout.Milliseconds()}
	maps.Copy(msg, args)
	line, _ := json.Marshal(msg)
	if _, err := d.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("step %s: writing to console.js: %v", step, err)
	}
	var raw string
	select {
	case r, ok := <-d.answers:
		if !ok {
			t.Fatalf("step %s: console.js exited (%s)", step, d.shots())
		}
		raw = r
	case <-time.After(timeout + 30*time.Second):
		t.Fatalf("step %s: no answer from console.js within %v (%s)", step, timeout+30*time.Second, d.shots())
	}
	var ans stepAnswer
	if err := json.Unmarshal([]byte(raw), &ans); err != nil {
		t.Fatalf("step %s: console.js answered %q: %v", step, raw, err)
	}
	if ans.Screenshot != "" {
		d.taken = append(d.taken, ans.Screenshot)
	}
	if len(ans.Problems) > 0 {
		t.Fatalf("step %s: the page had problems: %s (screenshot %s)", step, strings.Join(ans.Problems, "; "), ans.Screenshot)
	}
	if !ans.OK {
		t.Fatalf("step %s %s: %s (screenshot %s%s)", step, line, ans.Error, ans.Screenshot, ans.ScreenshotError)
	}
	return ans.Data
}

func (d *consoleDriver) decode(t *testing.T, data json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("console.js answered %s: %v", data, err)
	}
}

// waitPicture reads each new picture the page draws until cond holds of one, or fails at the
// deadline with cond's last complaint.
func (d *consoleDriver) waitPicture(t *testing.T, within time.Duration, what string, cond func(consolePicture) error) consolePicture {
	t.Helper()
	deadline := time.Now().Add(within)
	var p consolePicture
	var last error
	for {
		left := time.Until(deadline)
		if left <= 0 {
			t.Fatalf("%s: not within %v: %v (screenshot %s)", what, within, last, d.lastShot())
		}
		d.decode(t, d.do(t, "picture", max(left, 2*time.Second), map[string]any{"after": p.Seq}), &p)
		if last = cond(p); last == nil {
			return p
		}
	}
}

func (d *consoleDriver) lastShot() string {
	if len(d.taken) == 0 {
		return "none taken"
	}
	return d.taken[len(d.taken)-1]
}

// shots names the latest screenshot and where all of them are.
func (d *consoleDriver) shots() string {
	return fmt.Sprintf("screenshot %s; every step's in %s", d.lastShot(), d.shotDir)
}

// keepScreenshots copies the screenshots where the test's temporary directory will not take
// them away: after a failure, or always with FA_CONSOLE_SHOTS=DIR.
func (d *consoleDriver) keepScreenshots(t *testing.T) {
	keep := os.Getenv("FA_CONSOLE_SHOTS")
	if keep == "" && !t.Failed() {
		return
	}
	if keep == "" {
		keep = filepath.Join(os.TempDir(), "flightalliance-failed", strings.ReplaceAll(t.Name(), "/", "_"), "screenshots")
	}
	if err := os.MkdirAll(keep, 0o755); err != nil {
		t.Logf("keeping the screenshots: %v", err)
		return
	}
	for _, s := range d.taken {
		if b, err := os.ReadFile(s); err == nil {
			_ = os.WriteFile(filepath.Join(keep, filepath.Base(s)), b, 0o644)
		}
	}
	t.Logf("the screenshots of every step are kept in %s", keep)
}

// What console.js reads from the page.
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

// richestQuery is the query of testDate with the most trips in the reference, and its trips.
func richestQuery(data map[string][]flight.Flight) (query, []string) {
	airports := map[string]bool{}
	for _, fs := range data {
		for _, f := range fs {
			airports[f.Src], airports[f.Dst] = true, true
		}
	}
	var best query
	var trips []string
	for _, src := range slices.Sorted(maps.Keys(airports)) {
		for _, dst := range slices.Sorted(maps.Keys(airports)) {
			if src == dst {
				continue
			}
			q := query{src: src, dst: dst, date: testDate}
			if ts := referenceTrips(data, q, 30*time.Minute); len(ts) > len(trips) {
				best, trips = q, ts
			}
		}
	}
	return best, trips
}

// bookingStatus is a booking's status as the REST API reads it.
func bookingStatus(ctx context.Context, t *testing.T, w *bookingWorld, id string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	ans := w.api.get(ctx, id)
	b, err := ans.booking()
	if err != nil {
		t.Fatalf("GET booking %s: %v (%v)", id, err, ans)
	}
	return b.Status
}

// firstLeg is the flight of a reference trip's first leg.
func firstLeg(t *testing.T, data map[string][]flight.Flight, trip string) flight.Flight {
	t.Helper()
	number := strings.Split(strings.Fields(trip)[1], ">")[0]
	for _, s := range slices.Sorted(maps.Keys(data)) {
		for _, f := range data[s] {
			if f.Number == number {
				return f
			}
		}
	}
	t.Fatalf("no flight %s in the data", number)
	return flight.Flight{}
}

// tripPrice is what seats of a reference trip cost, as the API writes prices.
func tripPrice(t *testing.T, trip string, seats int) string {
	t.Helper()
	var units, cents int64
	if _, err := fmt.Sscanf(strings.Fields(trip)[0], "%d.%d", &units, &cents); err != nil {
		t.Fatalf("price of %q: %v", trip, err)
	}
	total := (units*100 + cents) * int64(seats)
	return fmt.Sprintf("%d.%02d", total/100, total%100)
}

func lastBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

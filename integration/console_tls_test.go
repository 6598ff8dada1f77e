package integration

import (
	"context"
	"flightalliance/internal/airlinecmd"
	"flightalliance/search"
	"flightalliance/tests/framework"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWebConsoleOverTLS serves the console over HTTPS in front of a secure alliance (TLS with
// client certificates on every machine): the live picture reads each machine's /status and
// /healthz with the search server's certificate, so every machine shows up, as the tree has it.
func TestWebConsoleOverTLS(t *testing.T) {
	dir := t.TempDir()
	addr := framework.FreeAddr(t)
	base := "https://" + addr
	a := prepareAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}}, allianceOpts{search: []string{base}})
	framework.StartProc(t, dir, "search", "search", append([]string{"--listen", addr}, airlinecmd.TLSArgs(framework.IssueFiles(t, dir, "search"))...)...)
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
	framework.Eventually(t, 30*time.Second, "the live picture shows m1 and m2 up, as the tree places the sellers", func() error {
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

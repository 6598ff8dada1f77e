package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// stepArgs are a console step's arguments.
type stepArgs map[string]any

func (a stepArgs) str(k string) string {
	switch v := a[k].(type) {
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

func (a stepArgs) num(k string) int64 {
	switch v := a[k].(type) {
	case int:
		return int64(v)
	case int64:
		return v
	}
	return 0
}

// consoleStep is one thing a user does on the page, and what the page then shows.
type consoleStep func(ctx context.Context, d *consoleDriver, s stepArgs) (any, error)

var consoleSteps = map[string]consoleStep{
	"open": func(ctx context.Context, d *consoleDriver, s stepArgs) (any, error) {
		path := s.str("path")
		if path == "" {
			path = "/"
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(d.base+path)); err != nil {
			return nil, err
		}
		if err := waitFor(ctx, `() => Number(document.querySelector('#live').dataset.seq) > 0`, nil); err != nil {
			return nil, err
		}
		if s["results"] == true {
			if err := waitFor(ctx, jsResultsSettled, nil); err != nil {
				return nil, err
			}
		}
		return read(ctx, jsReadResults, nil)
	},

	// mark leaves a value in the page's memory: still there later means the page was not reloaded.
	"mark": func(ctx context.Context, _ *consoleDriver, s stepArgs) (any, error) {
		return read(ctx, `(v) => { window.consoleTestMark = v; return v; }`, s.str("value"))
	},
	"readMark": func(ctx context.Context, _ *consoleDriver, _ stepArgs) (any, error) {
		return read(ctx, `() => window.consoleTestMark || ''`, nil)
	},

	// search types the query into the form as a user would and presses Search.
	"search": func(ctx context.Context, _ *consoleDriver, s stepArgs) (any, error) {
		steps := []chromedp.Action[chromedp.Void]{
			evalVoid(jsMarkOld, nil),
			fill(byLabel("^From"), ""), chromedp.SendKeys(byLabel("^From"), strings.ToLower(s.str("src"))),
			fill(byLabel("^To"), ""), chromedp.SendKeys(byLabel("^To"), s.str("dst")),
			fill(byLabel("^Date"), s.str("date")),
		}
		if s.str("sort") != "" {
			steps = append(steps, fill(byLabel("^Sort"), s.str("sort")))
		}
		if s.str("limit") != "" {
			steps = append(steps, fill(byLabel("^Page size"), s.str("limit")))
		}
		steps = append(steps, chromedp.Click(byRole("button", "^Search$")))
		if err := chromedp.Do(ctx, steps...); err != nil {
			return nil, err
		}
		if err := waitFor(ctx, jsResultsSettled, nil); err != nil {
			return nil, err
		}
		return read(ctx, jsReadResults, nil)
	},

	"nextPage": func(ctx context.Context, _ *consoleDriver, _ stepArgs) (any, error) {
		if err := chromedp.Do(ctx, evalVoid(jsMarkOld, nil), chromedp.Click(byRole("button", "^Next page"))); err != nil {
			return nil, err
		}
		if err := waitFor(ctx, jsResultsSettled, nil); err != nil {
			return nil, err
		}
		return read(ctx, jsReadResults, nil)
	},

	// picture waits for a picture newer than s.after (the seq of one seen before) and reads it.
	"picture": func(ctx context.Context, _ *consoleDriver, s stepArgs) (any, error) {
		if err := waitFor(ctx, `(after) => Number(document.querySelector('#live').dataset.seq) > after`, s.num("after")); err != nil {
			return nil, err
		}
		return read(ctx, jsReadPicture, nil)
	},

	// book books the trip of row s.row from the page: its Book button, seats, hold, Book seats.
	"book": func(ctx context.Context, _ *consoleDriver, s stepArgs) (any, error) {
		row := fmt.Sprintf(`document.querySelectorAll('#results table.trips tbody tr')[%d]`, s.num("row"))
		if err := chromedp.Do(ctx,
			chromedp.Click(byRoleIn(row, "button", "^Book ")),
			fill(byLabel("^Seats$"), s.str("seats")),
			fill(byLabel("^Hold"), s.str("hold")),
			chromedp.Click(byRole("button", "^Book seats$")),
		); err != nil {
			return nil, err
		}
		if err := waitFor(ctx, `() => {
			const r = document.querySelector('#booking-result');
			return (!r.hidden && r.dataset.status) || document.querySelector('#booking-msg').classList.contains('error');
		}`, nil); err != nil {
			return nil, err
		}
		return read(ctx, jsReadBooking, nil)
	},

	"confirm": func(ctx context.Context, _ *consoleDriver, _ stepArgs) (any, error) {
		return bookingAction(ctx, "^Confirm hold$", "confirmed")
	},
	"cancel": func(ctx context.Context, _ *consoleDriver, _ stepArgs) (any, error) {
		return bookingAction(ctx, "^Cancel booking$", "cancelled")
	},
	"close": func(context.Context, *consoleDriver, stepArgs) (any, error) { return nil, nil },
}

func bookingAction(ctx context.Context, button, want string) (any, error) {
	if err := chromedp.Do(ctx, chromedp.Click(byRole("button", button))); err != nil {
		return nil, err
	}
	if err := waitFor(ctx, `(w) => document.querySelector('#booking-result').dataset.status === w ||
		document.querySelector('#booking-msg').classList.contains('error')`, want); err != nil {
		return nil, err
	}
	return read(ctx, jsReadBooking, nil)
}

// call is the JavaScript that calls fn with arg.
func call(fn string, arg any) string {
	a, _ := json.Marshal(arg)
	return fmt.Sprintf("(%s)(%s)", fn, a)
}

// read calls fn(arg) in the page and returns its JSON result.
func read(ctx context.Context, fn string, arg any) (json.RawMessage, error) {
	var out []byte
	err := inPage(ctx, func() (err error) {
		out, err = chromedp.Run(ctx, chromedp.Evaluate[[]byte](call(fn, arg)))
		return err
	})
	return out, err
}

// inPage runs f again while it fails because the page it ran in was just replaced by a
// navigation ("Cannot find context with specified id": the new document's JavaScript context
// was not yet known), for as long as ctx allows.
func inPage(ctx context.Context, f func() error) error {
	for {
		err := f()
		if err == nil || !strings.Contains(err.Error(), "Cannot find context with specified id") || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func evalVoid(fn string, arg any) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](call(fn, arg))
}

// waitFor polls fn(arg) until it is truthy, for as long as ctx allows.
func waitFor(ctx context.Context, fn string, arg any) error {
	deadline, _ := ctx.Deadline()
	return inPage(ctx, func() error {
		_, err := chromedp.Run(ctx, chromedp.PollFunction[chromedp.Void](fn,
			chromedp.WithPollingArgs(arg), chromedp.WithPollingTimeout(time.Until(deadline))))
		return err
	})
}

// fill sets a form control's value as a user's typing or choosing would, with its input and
// change events.
func fill(sel chromedp.JSPath, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`((el, v) => {
		if (!el) throw new Error('no such control: ' + %q);
		el.focus();
		el.value = v;
		el.dispatchEvent(new Event('input', { bubbles: true }));
		el.dispatchEvent(new Event('change', { bubbles: true }));
	})(%s, %s)`, string(sel), string(sel), mustJSON(value)))
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// byLabel is the control a visible label whose text matches re names, as a user finds it.
func byLabel(re string) chromedp.JSPath {
	return chromedp.JSPath(fmt.Sprintf(`(() => {
		const l = [...document.querySelectorAll('label')].find((l) => new RegExp(%s).test(l.textContent.trim()) && l.getClientRects().length > 0);
		return l ? document.getElementById(l.htmlFor) : null;
	})()`, mustJSON(re)))
}

// byRole is the first visible, enabled element of the role whose accessible name (its
// aria-label, or else its text) matches re.
func byRole(role, re string) chromedp.JSPath { return byRoleIn("document", role, re) }

func byRoleIn(scope, role, re string) chromedp.JSPath {
	return chromedp.JSPath(fmt.Sprintf(`(() => {
		const scope = %s;
		if (!scope) return null;
		return [...scope.querySelectorAll(%s)].find((el) =>
			new RegExp(%s).test((el.getAttribute('aria-label') || el.textContent).trim()) &&
			el.getClientRects().length > 0 && !el.disabled) || null;
	})()`, scope, mustJSON(role), mustJSON(re)))
}

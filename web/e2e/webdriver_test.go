package e2e

// A small W3C WebDriver client (https://www.w3.org/TR/webdriver2/) over
// net/http and encoding/json: just the endpoints the page test needs, so
// that driving Debian's chromium through chromium-driver adds no Go
// dependency.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// elementKey is the W3C key under which an element reference travels.
const elementKey = "element-6066-11e4-a52e-4f735466cecf"

// driver is one chromedriver process and one browser session in it.
type driver struct {
	t       testing.TB
	base    string // http://127.0.0.1:port
	session string
	cmd     *exec.Cmd
	client  *http.Client
}

// browserPaths finds Debian's chromium and chromium-driver (or their usual
// other names); ok is false when either is missing.
func browserPaths() (browser, drv string, ok bool) {
	look := func(env string, names ...string) string {
		if p := os.Getenv(env); p != "" {
			return p
		}
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
		}
		return ""
	}
	browser = look("PRIVAMP_CHROMIUM", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
	drv = look("PRIVAMP_CHROMEDRIVER", "chromedriver", "chromium-driver")
	return browser, drv, browser != "" && drv != ""
}

// freePort asks the kernel for a free TCP port on 127.0.0.1.
func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startDriver starts chromedriver and a headless session of browser with a
// window of w×h CSS pixels; everything is stopped by t.Cleanup.
func startDriver(t testing.TB, browser, drv string, w, h int) *driver {
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, drv, "--port="+strconv.Itoa(port), "--allowed-ips=127.0.0.1")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting %s: %v", drv, err)
	}
	d := &driver{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, client: &http.Client{Timeout: 60 * time.Second}}
	t.Cleanup(func() {
		if d.session != "" {
			_ = d.do("DELETE", "/session/"+d.session, nil, nil)
		}
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("chromedriver log:\n%s", tail(logs.String(), 3000))
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		var st struct {
			Ready bool `json:"ready"`
		}
		if err := d.do("GET", "/status", nil, &st); err == nil && st.Ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chromedriver on port %d not ready after 20 s: %s", port, tail(logs.String(), 2000))
		}
		time.Sleep(50 * time.Millisecond)
	}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"goog:chromeOptions": map[string]any{
			"binary": browser,
			"args": []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--no-first-run", "--disable-extensions", fmt.Sprintf("--window-size=%d,%d", w, h)},
		},
	}}}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := d.do("POST", "/session", caps, &s); err != nil {
		t.Fatalf("new browser session (%s): %v", browser, err)
	}
	d.session = s.SessionID
	return d
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// do sends one WebDriver command; the reply's "value" is decoded into out.
func (d *driver) do(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, d.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, tail(string(raw), 500))
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(env.Value, &e)
		return fmt.Errorf("%s %s: %s: %s", method, path, e.Error, tail(e.Message, 500))
	}
	if out != nil {
		return json.Unmarshal(env.Value, out)
	}
	return nil
}

func (d *driver) sess(path string) string { return "/session/" + d.session + path }

// get navigates to url.
func (d *driver) get(url string) {
	d.t.Helper()
	if err := d.do("POST", d.sess("/url"), map[string]string{"url": url}, nil); err != nil {
		d.t.Fatal(err)
	}
}

// exec runs script (a function body; arguments as arguments[i]) in the page
// and decodes its return value into out.
func (d *driver) exec(script string, out any, args ...any) {
	d.t.Helper()
	if args == nil {
		args = []any{}
	}
	if err := d.do("POST", d.sess("/execute/sync"), map[string]any{"script": script, "args": args}, out); err != nil {
		d.t.Fatalf("script %q: %v", tail(script, 200), err)
	}
}

// find returns the element id of the first match of a CSS selector.
func (d *driver) find(css string) string {
	d.t.Helper()
	var el map[string]string
	if err := d.do("POST", d.sess("/element"), map[string]string{"using": "css selector", "value": css}, &el); err != nil {
		d.t.Fatalf("find %s: %v", css, err)
	}
	return el[elementKey]
}

// typeInto clears the input matched by css and types text into it, as a
// person would (key events, so the page's input handlers run).
func (d *driver) typeInto(css, text string) {
	d.t.Helper()
	id := d.find(css)
	if err := d.do("POST", d.sess("/element/"+id+"/clear"), map[string]any{}, nil); err != nil {
		d.t.Fatalf("clear %s: %v", css, err)
	}
	if err := d.do("POST", d.sess("/element/"+id+"/value"), map[string]string{"text": text}, nil); err != nil {
		d.t.Fatalf("type into %s: %v", css, err)
	}
}

// click clicks the element matched by css.
func (d *driver) click(css string) {
	d.t.Helper()
	if err := d.do("POST", d.sess("/element/"+d.find(css)+"/click"), map[string]any{}, nil); err != nil {
		d.t.Fatalf("click %s: %v", css, err)
	}
}

// text returns the rendered text of the element matched by css.
func (d *driver) text(css string) string {
	d.t.Helper()
	var s string
	d.exec(`const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;`, &s, css)
	return s
}

// wait polls a script returning a boolean until it is true, up to timeout.
func (d *driver) wait(what, script string, timeout time.Duration, args ...any) {
	d.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		d.exec(script, &ok, args...)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var errs string
			d.exec(`return (window.privampErrors || []).concat(window.privampLog || []).join("\n");`, &errs)
			d.t.Fatalf("waited %v for %s; page errors: %q", timeout, what, errs)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// screenshot writes a PNG of the page's viewport to path.
func (d *driver) screenshot(path string) {
	d.t.Helper()
	var b64 string
	if err := d.do("GET", d.sess("/screenshot"), nil, &b64); err != nil {
		d.t.Fatalf("screenshot: %v", err)
	}
	png, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		d.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		d.t.Fatal(err)
	}
}

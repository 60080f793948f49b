package web

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// rgba is a colour as CSS computes it: red, green and blue 0 to 255, and
// its opacity 0 to 1.
type rgba [4]float64

var cssColourPattern = regexp.MustCompile(`rgba?\(\s*([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\s*\)|#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b`)

// cssColours are the colours a computed value (a colour, a shadow, a
// gradient) or an SVG file names, in order.
func cssColours(s string) []rgba {
	var out []rgba
	for _, m := range cssColourPattern.FindAllStringSubmatch(s, -1) {
		if hex := m[5]; hex != "" {
			if len(hex) == 3 {
				hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
			}
			v, _ := strconv.ParseUint(hex, 16, 32)
			out = append(out, rgba{float64(v >> 16), float64(v >> 8 & 0xff), float64(v & 0xff), 1})
			continue
		}
		c := rgba{1: 0, 3: 1}
		for i := range 3 {
			c[i], _ = strconv.ParseFloat(m[i+1], 64)
		}
		if m[4] != "" {
			c[3], _ = strconv.ParseFloat(m[4], 64)
		}
		out = append(out, c)
	}
	return out
}

// solid is the first colour of s that is more than half opaque.
func solid(t *testing.T, what, s string) rgba {
	t.Helper()
	for _, c := range cssColours(s) {
		if c[3] > 0.5 {
			return c
		}
	}
	t.Fatalf("%s: no colour in %q", what, s)
	return rgba{}
}

// over is c painted over the opaque ground.
func (c rgba) over(ground rgba) rgba {
	var out rgba
	for i := range 3 {
		out[i] = c[i]*c[3] + ground[i]*(1-c[3])
	}
	out[3] = 1
	return out
}

// luminance is WCAG's relative luminance of an opaque colour.
func (c rgba) luminance() float64 {
	ch := func(v float64) float64 {
		x := v / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c[0]) + 0.7152*ch(c[1]) + 0.0722*ch(c[2])
}

// contrastRatio is WCAG's contrast ratio of two opaque colours, 1 to 21.
func contrastRatio(a, b rgba) float64 {
	la, lb := a.luminance(), b.luminance()
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func (c rgba) String() string {
	return fmt.Sprintf("#%02x%02x%02x", int(math.Round(c[0])), int(math.Round(c[1])), int(math.Round(c[2])))
}

// svgColour is the first colour the picture name of static/ draws with.
func svgColour(t *testing.T, name string) rgba {
	t.Helper()
	b, err := static.ReadFile("static/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return solid(t, name, string(b))
}

// schemeColours are the computed colours of the page's parts, read with
// probes: an element of the part's classes put where the part is, read and
// taken away again, so that every state the page can show is read at once.
const schemeColours = `(() => {
	const cs = (e, p, pseudo) => getComputedStyle(e, pseudo || null).getPropertyValue(p);
	const probe = (parent, tag, cls, attrs, read) => {
		const e = document.createElement(tag);
		e.className = cls;
		for (const k in attrs) { e.setAttribute(k, attrs[k]); }
		parent.appendChild(e);
		const v = read(e);
		e.remove();
		return v;
	};
	const out = {};
	const both = (name, e) => { out[name + " ink"] = cs(e, "color"); out[name + " ground"] = cs(e, "background-color"); };
	out["page ground"] = cs(document.body, "background-color");
	out["page ink"] = cs(document.body, "color");
	out["coordinate ink"] = cs(document.querySelector(".sq[data-row]"), "color", "::before");
	out["keys ink"] = cs(document.getElementById("keys"), "color");
	out["done ink"] = cs(document.getElementById("done"), "color");
	out["refusal ink"] = cs(document.getElementById("refusal"), "color");
	out["hint ink"] = cs(document.getElementById("hint"), "color");
	probe(document.getElementById("time"), "li", "", {}, e => both("notice", e));
	probe(document.getElementById("history"), "li", "", {}, li => {
		probe(li, "button", "", {}, e => { out["move ink"] = cs(e, "color"); });
		probe(li, "button", "", {"aria-current": "step"}, e => both("current move", e));
	});
	probe(document.getElementById("actions"), "button", "", {}, e => {
		both("button", e);
		e.focus();
		out["button focus style"] = cs(e, "outline-style");
		out["button focus"] = cs(e, "outline-color");
	});
	both("menu", document.getElementById("saved"));
	const tray = document.getElementById("tray"), hidden = tray.hidden;
	tray.hidden = false;
	probe(tray, "button", "", {"aria-disabled": "true"}, e => both("tray piece all placed", e));
	probe(tray, "button", "", {"aria-selected": "true"}, e => { out["tray choice"] = cs(e, "box-shadow") + " " + cs(e, "outline-color") + " " + cs(e, "outline-style"); });
	tray.hidden = hidden;
	both("question", document.getElementById("ask"));
	out["question edge"] = cs(document.getElementById("ask"), "border-top-color");
	out["question edge width"] = cs(document.getElementById("ask"), "border-top-width");
	both("question's button", document.getElementById("ask-no"));
	const row = document.querySelector("#board .row");
	const square = cls => probe(row, "button", "sq " + cls, {}, e => cs(e, "background-color"));
	for (const [name, cls] of [["land", ""], ["set-up zone", "zone"], ["last move's square", "from"], ["battle's square", "battle"]]) {
		out[name] = square(cls);
	}
	out["red piece ink"] = probe(row, "button", "sq red", {}, e => cs(e, "color"));
	out["blue piece ink"] = probe(row, "button", "sq blue", {}, e => cs(e, "color"));
	out["selection"] = probe(row, "button", "sq red sel", {}, e => cs(e, "box-shadow"));
	out["selected red piece ink"] = probe(row, "button", "sq red sel", {}, e => cs(e, "color"));
	out["selected blue piece ink"] = probe(row, "button", "sq blue sel", {}, e => cs(e, "color"));
	out["empty target"] = probe(row, "button", "sq target", {}, e => cs(e, "background-image"));
	out["piece target"] = probe(row, "button", "sq target blue", {}, e => cs(e, "background-image"));
	const sq = document.querySelector(".sq:not(.lake)");
	sq.focus();
	out["square focus style"] = cs(sq, "outline-style");
	out["square focus"] = cs(sq, "outline-color");
	sq.blur();
	return out;
})()`

// TestBrowserColourSchemes: the page follows the reader's system, light or
// dark (Discord's dark theme at night meets no white page), and in both its
// text reads at WCAG AA's 4.5:1 on its ground, and the marks that say where
// the keyboard is, what was chosen, where a piece may go and what last
// happened stand out at 3:1 from what they lie on. In the dark scheme every
// text is light on a dark ground. The board keeps its colours in both: its
// pieces stand out from its land at 3:1.
func TestBrowserColourSchemes(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			if err := chromedp.Do(ctx,
				browsertest.ColorScheme(scheme),
				browsertest.Focused(),
				chromedp.Navigate("about:blank"),
				chromedp.Navigate(f.ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
				chromedp.WaitVisible(chromedp.CSS(`#resign`)),
			); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](schemeColours))
			if err != nil {
				t.Fatal(err)
			}
			if got["button focus style"] != "solid" || got["square focus style"] != "solid" {
				t.Fatalf("no focus ring shown: a button's is %q, a square's %q", got["button focus style"], got["square focus style"])
			}
			c := func(name string) rgba {
				t.Helper()
				v, ok := got[name]
				if !ok {
					t.Fatalf("no colour read for %s", name)
				}
				return solid(t, name, v)
			}
			page, land := c("page ground"), c("land")
			// The selection lights its square up with a tint over the piece
			// and its symbol, under its rank.
			shadow := cssColours(got["selection"])
			if len(shadow) != 2 {
				t.Fatalf("the selection's shadows: %q", got["selection"])
			}
			tint := shadow[1]
			red, blue, symbol := svgColour(t, "tile-red.svg"), svgColour(t, "tile-blue.svg"), svgColour(t, "bomb.svg")
			grounds := []string{"land", "set-up zone", "last move's square", "battle's square"}
			type pair struct {
				what     string
				fg, bg   rgba
				min      float64
				darkText bool // dark text on a light ground even in the dark scheme
			}
			pairs := []pair{
				{"the page's text", c("page ink"), page, 4.5, false},
				{"the coordinates", c("coordinate ink"), page, 4.5, false},
				{"the keys' help", c("keys ink"), page, 4.5, false},
				{"a refusal", c("refusal ink"), page, 4.5, false},
				{"a set-up's hint", c("hint ink"), page, 4.5, false},
				{"what was done", c("done ink"), page, 4.5, false},
				{"a notice", c("notice ink"), c("notice ground").over(page), 4.5, false},
				{"a move in the list", c("move ink"), page, 4.5, false},
				{"the move shown", c("current move ink"), c("current move ground").over(page), 4.5, scheme == "light"},
				{"a button", c("button ink"), c("button ground").over(page), 4.5, false},
				{"the menu of set-ups", c("menu ink"), c("menu ground").over(page), 4.5, false},
				{"a tray piece all placed", c("tray piece all placed ink").over(c("tray piece all placed ground").over(page)), c("tray piece all placed ground").over(page), 4.5, false},
				{"a question", c("question ink"), c("question ground"), 4.5, false},
				{"a question's button", c("question's button ink"), c("question's button ground").over(c("question ground")), 4.5, false},
				{"a Red piece's rank", c("red piece ink"), red, 4.5, false},
				{"a Blue piece's rank", c("blue piece ink"), blue, 4.5, false},
				{"the selected Red piece's rank", c("selected red piece ink"), tint.over(red), 4.5, true},
				{"the selected Blue piece's rank", c("selected blue piece ink"), tint.over(blue), 4.5, true},
				{"a Red Bomb's symbol", symbol, red, 3, false},
				{"a Blue Bomb's symbol", symbol, blue, 3, false},
				{"the selected Red Bomb's symbol", tint.over(symbol), tint.over(red), 3, false},
				{"the selected Blue Bomb's symbol", tint.over(symbol), tint.over(blue), 3, false},
				{"the focus ring of a control, on the page", c("button focus"), page, 3, false},
				{"the focus ring of a control, on a question", c("button focus"), c("question ground"), 3, false},
				{"the tray's chosen piece", solid(t, "tray choice", got["tray choice"]), page, 3, false},
				{"a Red piece on the land", red, land, 3, false},
				{"a Blue piece on the land", blue, land, 3, false},
				{"the last move's frame, on its square", svgColour(t, "last-from.svg"), c("last move's square"), 3, false},
				{"the last move's thick frame, on its square", svgColour(t, "last-to.svg"), c("last move's square"), 3, false},
				{"the last move's frame, by the land", svgColour(t, "last-from.svg"), land, 3, false},
				{"a battle's frame, on its square", svgColour(t, "battle.svg"), c("battle's square"), 3, false},
				{"a battle's frame, by the land", svgColour(t, "battle.svg"), land, 3, false},
				{"a Scout's trail", svgColour(t, "trail-h.svg"), land, 3, false},
				{"a Scout's trail, up and down", svgColour(t, "trail-v.svg"), land, 3, false},
			}
			// A question's panel has a shadow round it, which a dark page does
			// not show: there it has an edge.
			if scheme == "dark" {
				if w := got["question edge width"]; w == "0px" {
					t.Errorf("a question's panel has no edge")
				}
				pairs = append(pairs, pair{"a question's edge, on the page", c("question edge"), page, 3, false})
			}
			for _, g := range grounds {
				pairs = append(pairs,
					pair{"the focus ring of a square, on the " + g, c("square focus"), c(g), 3, false},
					pair{"the selected piece's ring, on the " + g, c("selection"), c(g), 3, false},
					pair{"a target's dot, on the " + g, c("empty target").over(c(g)), c(g), 3, false},
					pair{"a target's corners round a piece, on the " + g, c("piece target").over(c(g)), c(g), 3, false},
				)
			}
			for _, p := range pairs {
				if r := contrastRatio(p.fg, p.bg); r < p.min {
					t.Errorf("%s: %v on %v, contrast %.2f, want %.1f or more", p.what, p.fg, p.bg, r, p.min)
				}
				if scheme == "dark" && p.min == 4.5 && !p.darkText && p.bg.luminance() > p.fg.luminance() {
					t.Errorf("%s: dark text %v on a light ground %v in the dark scheme", p.what, p.fg, p.bg)
				}
			}
		})
	}
}

// phoneAudit lists what on the open page fails a phone: a control (a
// square, a tray piece, a move in the list, a button, a menu) under 24 px
// either way, a text under 12 px (the coordinates beside the board too),
// anything out of the screen to the right or the left, and the focus ring
// of the control with the focus cut off by the box it scrolls in.
const phoneAudit = `(() => {
	const out = [], shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
	const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className.split(" ").join(".") : "") + (e.textContent ? " " + JSON.stringify(e.textContent.slice(0, 20)) : "");
	document.querySelectorAll("button, select, input, [tabindex]").forEach(e => {
		if (!shown(e)) { return; }
		const r = e.getBoundingClientRect();
		if (r.width < 24 || r.height < 24) { out.push("a control of " + r.width.toFixed(1) + "×" + r.height.toFixed(1) + " px: " + name(e)); }
	});
	document.querySelectorAll("body *").forEach(e => {
		if (!shown(e)) { return; }
		const r = e.getBoundingClientRect();
		if (r.right > innerWidth + 0.5 || r.left < -0.5) { out.push("out of the screen at " + r.left.toFixed(1) + ".." + r.right.toFixed(1) + " px: " + name(e)); }
	});
	if (document.documentElement.scrollWidth > innerWidth) { out.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " px"); }
	const small = new Set(), walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n; (n = walk.nextNode());) {
		const e = n.parentElement;
		if (!n.textContent.trim() || !shown(e) || e.closest(".sr")) { continue; }
		const size = parseFloat(getComputedStyle(e).fontSize);
		if (size < 12) { small.add(size + " px text: " + name(e)); }
	}
	document.querySelectorAll(".sq").forEach(e => {
		for (const p of ["::before", "::after"]) {
			const cs = getComputedStyle(e, p);
			if (cs.content !== "none" && cs.content !== "normal" && parseFloat(cs.fontSize) < 12) { small.add(cs.fontSize + " text " + cs.content + " by " + name(e)); }
		}
	});
	const f = document.activeElement, box = f && f.parentElement && f.parentElement.closest("#history");
	if (box && getComputedStyle(f).outlineStyle !== "none") {
		const r = f.getBoundingClientRect(), b = box.getBoundingClientRect(), cs = getComputedStyle(f);
		const ring = parseFloat(cs.outlineOffset) + parseFloat(cs.outlineWidth);
		if (r.top - ring < b.top + box.clientTop - 0.5 || r.bottom + ring > b.top + box.clientTop + box.clientHeight + 0.5) {
			out.push("the focus ring of " + name(f) + " (" + (r.top - ring).toFixed(1) + ".." + (r.bottom + ring).toFixed(1) + " px) cut off by its list (" + b.top.toFixed(1) + ".." + b.bottom.toFixed(1) + " px)");
		}
	}
	return out.concat(Array.from(small));
})()`

// TestBrowserPhoneInBothSchemes: on a phone 360 px wide (and on the
// narrowest, 320), in the light scheme and the dark, in a set-up, in play
// with a draw offer and a proposal to pause, a spectator's, with a question
// open, and after the end with the replay, every control is big enough to
// tap, every text big enough to read, and nothing leaves the screen.
func TestBrowserPhoneInBothSchemes(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	bg := context.Background()
	setup, err := f.store.CreateMatch(bg, storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	play := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantClassic), 2)
	play = storagetest.Play(t, f.store, play, 40, rand.New(rand.NewPCG(2, 2)))
	at := play.Log[len(play.Log)-1].At
	for _, a := range []storage.Action{{Kind: storage.ActOfferDraw, Side: game.Blue, At: at}, {Kind: storage.ActOfferPause, Side: game.Blue, Days: 3, At: at}} {
		if play, err = f.store.Act(bg, play.ID, play.Version, a); err != nil {
			t.Fatal(err)
		}
	}
	over := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 3)
	over = storagetest.Play(t, f.store, over, 10, rand.New(rand.NewPCG(3, 3)))
	if over, err = f.store.Act(bg, over.ID, over.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: over.Log[len(over.Log)-1].At}); err != nil {
		t.Fatal(err)
	}
	type state struct {
		name   string
		m      *storage.Match
		viewer game.Viewer
		shown  string // what the page shows once it is ready
		then   []chromedp.Action[chromedp.Void]
	}
	states := []state{
		{"a set-up", setup, game.RedViewer, `#tray button`, nil},
		{"a set-up under way", setup, game.RedViewer, `#tray button`, []chromedp.Action[chromedp.Void]{
			chromedp.Click(chromedp.CSS(`#random`)),
			chromedp.Poll[chromedp.Void](`!document.getElementById("keepSetup").disabled`),
		}},
		{"offers", play, game.RedViewer, `#declinePause`, nil},
		{"a spectator", play, game.PublicViewer, `#numbering`, nil},
		{"a question", play, game.RedViewer, `#resign`, []chromedp.Action[chromedp.Void]{
			chromedp.Click(chromedp.CSS(`#resign`)),
			chromedp.WaitVisible(chromedp.CSS(`#ask[open]`)),
		}},
		{"the end", over, game.RedViewer, `#download`, []chromedp.Action[chromedp.Void]{
			chromedp.Click(chromedp.CSS(`#first`)),
			chromedp.WaitVisible(chromedp.CSS(`#note:not(:empty)`)),
		}},
		{"the newest move, focused", play, game.RedViewer, `#history li`, []chromedp.Action[chromedp.Void]{
			browsertest.Focused(),
			chromedp.Focus(chromedp.CSS(`#history li:last-child button`)),
		}},
	}
	for _, width := range []int64{360, 320} {
		for _, scheme := range []string{"light", "dark"} {
			for _, tt := range states {
				t.Run(fmt.Sprintf("%d px/%s/%s", width, scheme, tt.name), func(t *testing.T) {
					steps := append([]chromedp.Action[chromedp.Void]{
						chromedp.EmulateViewport(width, 640, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch),
						browsertest.ColorScheme(scheme),
						chromedp.Navigate("about:blank"),
						chromedp.Navigate(f.ts.URL + "/board#" + f.token(tt.m.ID, tt.viewer)),
						chromedp.WaitVisible(chromedp.CSS(tt.shown)),
					}, tt.then...)
					if err := chromedp.Do(ctx, steps...); err != nil {
						t.Fatal(err)
					}
					problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](phoneAudit))
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range problems {
						t.Error(p)
					}
				})
			}
		}
	}
}

// TestBrowserDarkBeforeTheStyle: a page opened in the dark scheme is dark
// from the first paint, while its style sheet is still on its way on a
// slow network: the browser's own ground and text are the dark scheme's,
// not a white page that turns dark once the style sheet comes.
func TestBrowserDarkBeforeTheStyle(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	n := newSlowNet(t, f)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	for _, tt := range []struct {
		scheme string
		light  bool // the browser's text is light: its ground is dark
	}{{"light", false}, {"dark", true}} {
		t.Run(tt.scheme, func(t *testing.T) {
			h, letGo := n.hold("/static/board.css", false)
			defer letGo()
			if err := chromedp.Do(ctx,
				browsertest.ColorScheme(tt.scheme),
				browsertest.NoCache(), // the style sheet comes over the network each time, as on a first load
				chromedp.Navigate("about:blank"),
				// Not chromedp.Navigate, which waits for a load the held style sheet holds up.
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := cdp.Call(ctx, tg, cdppage.Navigate, cdppage.NavigateParams{URL: n.URL + "/board#" + f.token(m.ID, game.RedViewer)})
					return err
				}),
			); err != nil {
				t.Fatal(err)
			}
			h.waitFor(t, ctx, "the style sheet's request")
			browsertest.WaitAcrossLoad(t, ctx, "the page read", `document.readyState !== "loading" && !!document.getElementById("keys")`)
			ink, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.styleSheets.length + " " + getComputedStyle(document.body).color`))
			if err != nil {
				t.Fatal(err)
			}
			sheets, colour, _ := strings.Cut(ink, " ")
			if sheets != "0" {
				t.Fatalf("the style sheet is in (%s sheets): the network did not hold it", sheets)
			}
			if light := solid(t, "the browser's text", colour).luminance() > 0.5; light != tt.light {
				t.Errorf("before its style sheet, the page's text is %s in the %s scheme", colour, tt.scheme)
			}
		})
	}
}

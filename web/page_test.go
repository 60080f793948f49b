package web

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestTextsInEveryLanguage: a player's page gets its texts in the player's
// language and piece numbering; the public page in the language it asks for.
func TestTextsInEveryLanguage(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	for _, l := range lang.Languages() {
		for _, n := range []game.Numbering{game.NumberingModern, game.NumberingClassic} {
			f.setPrefs("1001", Preferences{Language: l.Code, Numbering: n})
			p := lang.For(l.Code)
			for _, tt := range []struct {
				viewer game.Viewer
				query  string
				num    game.Numbering
			}{
				{game.RedViewer, "", n},
				{game.PublicViewer, "?lang=" + url.QueryEscape(l.Discord[0]), game.NumberingModern},
			} {
				code, body, _ := f.do(t, "GET", "/api/texts"+tt.query, f.token(m.ID, tt.viewer), "")
				var tx Texts
				if code != 200 || json.Unmarshal([]byte(body), &tx) != nil {
					t.Fatalf("%s %v: %d %s", l.Code, tt.viewer, code, body)
				}
				if tx.Lang != l.Code || tx.T["yourMove"] != p.Sprintf(txtYourMove) || tx.T["toMove"] != p.Sprintf(txtToMove, "{1}") {
					t.Errorf("%s %v: texts %q %q %q", l.Code, tt.viewer, tx.Lang, tx.T["yourMove"], tx.T["toMove"])
				}
				if want := render.PieceName(p, game.Marshal, tt.num); tx.Pieces[game.Marshal] != want || tx.Labels[game.Marshal] != game.Marshal.Label(tt.num) {
					t.Errorf("%s %v %v: Marshal is %q %q, want %q", l.Code, tt.viewer, tt.num, tx.Pieces[game.Marshal], tx.Labels[game.Marshal], want)
				}
				for k, v := range tx.T {
					if v == "" || strings.Contains(v, "%!") || strings.Contains(v, "%[") {
						t.Errorf("%s: text %s is %q", l.Code, k, v)
					}
				}
			}
		}
	}
}

// TestPageUsesOnlyCatalogueTexts: every text the page names (fmt("key") in
// the script, data-t and data-l in the page) is one the server sends, so no
// text reaches a member untranslated.
func TestPageUsesOnlyCatalogueTexts(t *testing.T) {
	js, _ := static.ReadFile("static/board.js")
	html, _ := static.ReadFile("static/index.html")
	found := 0
	use := func(k string) {
		found++
		if _, ok := pageTexts[k]; !ok {
			t.Errorf("the page uses text %q, which the server does not send", k)
		}
	}
	for _, m := range regexp.MustCompile(`data-[tl]="(\w+)"`).FindAllSubmatch(html, -1) {
		use(string(m[1]))
	}
	// fmt's first argument: a key, or a choice of keys.
	quoted := regexp.MustCompile(`"(\w+)"`)
	for _, part := range strings.Split(string(js), "fmt(")[1:] {
		depth, end := 0, len(part)
	scan:
		for i, r := range part {
			switch {
			case r == '(':
				depth++
			case r == ')' && depth == 0, r == ',' && depth == 0:
				end = i
				break scan
			case r == ')':
				depth--
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(part[:end], -1) {
			use(m[1])
		}
	}
	if found < 30 {
		t.Fatalf("found only %d text uses: the patterns no longer match the script", found)
	}
}

// TestFirstLoadWeight sums what a first load fetches: the page, every asset
// it links, the texts and the first state. No address leaves the origin.
func TestFirstLoadWeight(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantClassic), 1)
	tok := f.token(m.ID, game.RedViewer)
	code, page, _ := f.do(t, "GET", "/board", "", "")
	if code != 200 {
		t.Fatalf("page: %d", code)
	}
	total := len(page)
	refs := regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 2 {
		t.Fatalf("the page links %d assets", len(refs))
	}
	var paths []string
	for _, ref := range refs {
		paths = append(paths, ref[1])
	}
	// A style sheet's pictures (url(name), beside it in static/) load too.
	cssURL := regexp.MustCompile(`url\(([^)]*)\)`)
	pictures := 0
	for i := 0; i < len(paths); i++ {
		path := paths[i]
		if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
			t.Fatalf("the page loads %q from another origin", path)
		}
		code, body, _ := f.do(t, "GET", path, "", "")
		if code != 200 {
			t.Fatalf("%s: %d", path, code)
		}
		// An SVG names its XML namespace, which it never fetches.
		if strings.Contains(strings.ReplaceAll(body, `xmlns="http://www.w3.org/2000/svg"`, ""), "http://") || strings.Contains(body, "https://") || strings.Contains(body, "@import") {
			t.Fatalf("%s names another origin", path)
		}
		total += len(body)
		if strings.HasSuffix(strings.SplitN(path, "?", 2)[0], ".css") { // its address names the build (?v=)
			for _, u := range cssURL.FindAllStringSubmatch(body, -1) {
				if strings.ContainsAny(u[1], `:/"'`) {
					t.Fatalf("%s loads %q, not a file beside it", path, u[1])
				}
				if !slices.Contains(paths, "/static/"+u[1]) {
					paths = append(paths, "/static/"+u[1])
					pictures++
				}
			}
		}
	}
	if pictures == 0 {
		t.Fatal("the style sheet loads no pictures: the pattern no longer matches it")
	}
	for _, api := range []string{"/api/texts?lang=fr", "/api/state"} {
		code, body, _ := f.do(t, "GET", api, tok, "")
		if code != 200 {
			t.Fatalf("%s: %d", api, code)
		}
		total += len(body)
	}
	t.Logf("first load: %d bytes", total)
	if total > 150<<10 {
		t.Fatalf("first load is %d bytes, over 150 KB", total)
	}
}

// TestReplayFrames: in a running match each frame is the viewer's own view
// at that move; once the match is over, every frame shows both armies.
func TestReplayFrames(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 2)
	tokens := map[game.Viewer]string{}
	for _, v := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
		tokens[v] = f.token(m.ID, v)
	}
	for range 6 {
		g, _ := m.Game()
		mv := g.LegalMoves()[0]
		tok := f.token(m.ID, game.ViewerOf(g.ToMove()))
		code, resp, _ := f.do(t, "POST", "/api/move", tok, fmt.Sprintf(`{"basis":%q,"from":%d,"to":%d}`, f.basis(t, tok), mv.From, mv.To))
		if code != 200 {
			t.Fatalf("move: %d %s", code, resp)
		}
		m, _ = f.store.Match(t.Context(), m.ID)
	}
	frame := func(v game.Viewer, ply int) *State {
		code, resp, _ := f.do(t, "GET", fmt.Sprintf("/api/replay?ply=%d", ply), tokens[v], "")
		var st State
		if code != 200 || json.Unmarshal([]byte(resp), &st) != nil {
			t.Fatalf("replay %v %d: %d %s", v, ply, code, resp)
		}
		return &st
	}
	for ply := 0; ply <= 6; ply++ {
		g, err := gameAtPly(m, ply)
		if err != nil {
			t.Fatal(err)
		}
		for v := range tokens {
			want := BuildState(m, g, v, f.srv.opts.Now())
			want.Legal, want.Infiltrate, want.Pad = nil, nil, ""
			if got := frame(v, ply); string(got.Encode()) != string(want.Encode()) {
				t.Fatalf("%v ply %d: the frame is not the viewer's view then:\n%s\n%s", v, ply, got.Encode(), want.Encode())
			}
		}
	}
	if code, _, _ := f.do(t, "POST", "/api/resign", tokens[game.BlueViewer], fmt.Sprintf(`{"basis":%q}`, f.basis(t, tokens[game.BlueViewer]))); code != 200 {
		t.Fatal("resign")
	}
	for ply := 0; ply <= 6; ply++ {
		for v := range tokens {
			hidden := 0
			for _, c := range frame(v, ply).Board {
				if c.Side != "" && c.Rank == 0 {
					hidden++
				}
			}
			if hidden != 0 {
				t.Fatalf("%v ply %d of a finished match: %d pieces still hidden", v, ply, hidden)
			}
		}
	}
}

// TestErrorsInThePagesLanguage: a refused request is explained in the
// language the page asks for.
func TestErrorsInThePagesLanguage(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	for _, l := range lang.Languages() {
		p := lang.For(l.Code)
		for _, tt := range []struct {
			method, path, tok, body, key string
		}{
			{"GET", "/api/state", "forged", "", txtLinkInvalid},
			{"POST", "/api/resign", f.token(m.ID, game.PublicViewer), `{"basis":""}`, txtPlayersOnly},
			{"GET", "/api/replay?ply=x", f.token(m.ID, game.RedViewer), "", txtBadRequest},
		} {
			sep := "?"
			if strings.Contains(tt.path, "?") {
				sep = "&"
			}
			_, body, _ := f.do(t, tt.method, tt.path+sep+"lang="+l.Code, tt.tok, tt.body)
			var e struct{ Error string }
			if json.Unmarshal([]byte(body), &e) != nil || e.Error != p.Sprintf(tt.key) {
				t.Errorf("%s %s: %s, want %q", l.Code, tt.path, body, p.Sprintf(tt.key))
			}
		}
	}
}

// TestNumberingChoice: the public view numbers the pieces as the page asks;
// a player's page numbers them as the player's settings say, whatever it asks.
func TestNumberingChoice(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	f.setPrefs("1001", Preferences{Numbering: game.NumberingModern})
	for _, tt := range []struct {
		name   string
		viewer game.Viewer
		query  string
		want   string // the Marshal's label
	}{
		{"public, default", game.PublicViewer, "", "10"},
		{"public, classic", game.PublicViewer, "?numbering=classic", "1"},
		{"public, nonsense", game.PublicViewer, "?numbering=x", "10"},
		{"player, modern in settings", game.RedViewer, "?numbering=classic", "10"},
	} {
		code, body, _ := f.do(t, "GET", "/api/texts"+tt.query, f.token(m.ID, tt.viewer), "")
		var texts Texts
		if err := json.Unmarshal([]byte(body), &texts); code != 200 || err != nil {
			t.Fatalf("%s: %d %s", tt.name, code, body)
		}
		if got := texts.Labels[game.Marshal]; got != tt.want {
			t.Errorf("%s: the Marshal is %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestPageNamesItsBuild: the page's links to its script and style name the
// build served, and so does every API answer, refusals included (see
// BuildHeader): what a page open across an upgrade learns it by.
func TestPageNamesItsBuild(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	build := f.srv.buildName()
	if len(build) != 12 {
		t.Fatalf("the build is %q", build)
	}
	_, page, _ := f.do(t, "GET", "/board", "", "")
	for _, link := range []string{`src="/static/board.js?v=` + build + `"`, `href="/static/board.css?v=` + build + `"`} {
		if !strings.Contains(page, link) {
			t.Errorf("the page has no %s", link)
		}
	}
	for _, tok := range []string{f.token(m.ID, game.RedViewer), "", "forged"} {
		if _, _, h := f.do(t, "GET", "/api/state", tok, ""); h.Get(BuildHeader) != build {
			t.Errorf("an answer with token %.8q names build %q, want %q", tok, h.Get(BuildHeader), build)
		}
	}
}

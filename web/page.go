package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"
	"sync"
)

//go:embed static
var static embed.FS

func staticFS() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err)
	}
	return sub
}

// BuildHeader names, on every API answer, the build of the page the bot
// serves now (assetBuild). The page's links to its script and style carry
// the build they were served with (?v=), so that a browser that kept the
// old ones fetches the new, and the script knows its own: a page open
// across an upgrade of the bot, which finds another build named as its
// stream comes back, loads itself again rather than run its old script
// against the new bot.
const BuildHeader = "X-Strategobot-Build"

// assetBuild is a digest of static/: the build of the page and its assets.
var assetBuild = sync.OnceValue(func() string {
	h := sha256.New()
	err := fs.WalkDir(static, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(path)
		if err != nil {
			return err
		}
		h.Write([]byte(path))
		h.Write([]byte{0})
		h.Write(b)
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
})

// assets serves the page's assets, static/, so that a browser keeps them:
// the page is opened from every DM of a match, many times a day on a
// phone, and its script and style are most of its weight. An asset asked
// for under the build served (?v=, as the page's links name the script
// and the style) is that build's for good; any other (the pictures the
// style names, an old page's link) is asked again each time, and answered
// "not modified" while its build's digest is the same (ETag).
func (s *Server) assets() http.Handler {
	files := http.StripPrefix("/static/", http.FileServerFS(staticFS()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // a folder: the page names each file it needs
			return
		}
		if r.URL.Query().Get("v") == s.buildName() {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		w.Header().Set("ETag", `"`+assetBuild()+`"`)
		files.ServeHTTP(w, r)
	})
}

// page serves the board page. It holds no match data: the script reads the
// capability from the URL's fragment and asks the API with it. Its links
// to the script and the style name the build (BuildHeader).
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	b, err := static.ReadFile("static/index.html")
	if err != nil {
		http.Error(w, "missing page", http.StatusInternalServerError)
		return
	}
	v := []byte("?v=" + s.buildName())
	b = bytes.Replace(b, []byte(`/static/board.css"`), append(append([]byte(`/static/board.css`), v...), '"'), 1)
	b = bytes.Replace(b, []byte(`/static/board.js"`), append(append([]byte(`/static/board.js`), v...), '"'), 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

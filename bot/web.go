package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// The board in the browser (package web), a second face of the same
// matches: its actions take the bot's one path of each (play, storeDraft and
// confirmDraft, recordAction, giveTime, recordPause), and afterChange tells its open pages of every
// change (webChanged), noticeDone of a clock's start.

// linkLifetime is how long an "Open board" link works; every new board
// brings a fresh one.
const linkLifetime = 14 * 24 * time.Hour

// webPoll is how often a process on a shared database looks for changes
// another process made to the matches its pages show.
const webPoll = 2 * time.Second

// webFace is the bot's web board: the server, its signer and the address
// players reach it at.
type webFace struct {
	srv       *web.Server
	signer    *web.Signer
	publicURL string

	mu   sync.Mutex
	seen map[storage.MatchID]sentAs // what was last sent to open pages
}

// sentAs is what the pages of a match were last sent: its version and the
// state of its clock, which starts without a new version (when the board of
// the side to move arrives).
type sentAs struct {
	version uint64
	pending bool
}

func sentAsOf(m *storage.Match) sentAs {
	return sentAs{version: m.Version, pending: m.ClockPending}
}

// newer reports whether m is news to pages last sent s: a later version, or
// the same one whose clock started since (within a version the clock only
// starts, so a pending state after a started one is stale).
func (s sentAs) newer(m *storage.Match) bool {
	if m.Version != s.version {
		return m.Version > s.version
	}
	return s.pending && !m.ClockPending
}

// CheckPublicURL says why publicURL cannot be the web board's address, nil
// when it can: an absolute http or https URL without query or fragment, on
// a port a browser opens, at the root of its host (the page asks for /static/ and /api/ from the root).
func CheckPublicURL(publicURL string) error {
	u, err := url.Parse(publicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("public_url %q: write the address players open, like https://stratego.example.org (http or https, no query)", publicURL)
	}
	if n, err := strconv.Atoi(u.Port()); u.Port() != "" && (err != nil || n < 1 || n > 65535) {
		// url.Parse takes any digits for a port; the players' browsers
		// refuse the links.
		return fmt.Errorf("public_url %q: the port must be a number from 1 to 65535, or none (https's own, 443), like https://stratego.example.org", publicURL)
	}
	if strings.Trim(u.Path, "/") != "" {
		return fmt.Errorf("public_url %q: the board must be served at the root of its host, not under a path; "+
			"give it a host of its own, like https://stratego.example.org", publicURL)
	}
	return nil
}

// EnableWeb turns the web board on: it reads (or draws) the signing key from
// the store and returns the handler to serve, which the caller mounts behind
// publicURL. Board DMs and set-up invites then carry an "Open board" link.
// Until ctx ends, on a shared database, it polls the matches with open
// pages for changes made by other processes.
func (b *Bot) EnableWeb(ctx context.Context, publicURL string) (http.Handler, error) {
	if err := CheckPublicURL(publicURL); err != nil {
		return nil, err
	}
	key, err := b.store.WebKey(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the web signing key: %w", err)
	}
	signer, err := web.NewSigner(key)
	if err != nil {
		return nil, err
	}
	srv := web.New(web.Options{
		Auth:    &web.CapabilityAuth{Signer: signer, Matches: b.store, Links: b.store, Now: b.cfg.Now},
		Matches: b.store,
		Actor:   webActor{b},
		Log:     b.log.Warn,
		Now:     b.now,
		// The computer is named in the reader's language, as on Discord.
		Names: b.plainNames,
		// A player's page speaks their language and numbers pieces their way.
		Preferences: func(ctx context.Context, userID string) (web.Preferences, error) {
			st := b.settingsOf(ctx, userID)
			return web.Preferences{Language: st.Locale, Numbering: st.Numbering}, nil
		},
	})
	b.web.Store(&webFace{srv: srv, signer: signer, publicURL: publicURL, seen: map[storage.MatchID]sentAs{}})
	go b.pollWeb(ctx)
	return b.afterAway(srv), nil
}

// webChanged tells the open pages of the snapshot's match of its change.
func (b *Bot) webChanged(snap *snapshot) {
	w := b.web.Load()
	if w == nil || !w.srv.Watched(snap.m.ID) {
		return
	}
	m := snap.m
	var g *game.Game
	if m.Setups[game.Red].Status == storage.SetupConfirmed && m.Setups[game.Blue].Status == storage.SetupConfirmed {
		var err error
		if g, err = snap.gameAt(len(m.Log), b.countReplay); err != nil {
			b.log.Error("rebuilding a game for the web board failed", "match", m.ID, "error", err)
			return
		}
	}
	w.publish(m, g)
}

// publish sends m's new state to its open pages, once per version and
// clock state.
func (w *webFace) publish(m *storage.Match, g *game.Game) {
	w.mu.Lock()
	if !w.seen[m.ID].newer(m) {
		w.mu.Unlock()
		return
	}
	w.seen[m.ID] = sentAsOf(m)
	w.mu.Unlock()
	w.srv.MatchChanged(m, g)
}

// webClockStarted tells the open pages of match id that a clock may have
// started, when no kept snapshot says how: from the match as stored.
func (b *Bot) webClockStarted(ctx context.Context, id storage.MatchID) {
	w := b.web.Load()
	if w == nil || !w.srv.Watched(id) {
		return
	}
	m, err := b.store.Match(ctx, id)
	if err != nil {
		b.log.Warn("reading a match for the web board failed", "match", id, "error", err)
		return
	}
	b.webChanged(newSnapshot(m, nil))
}

// pollWeb looks, every webPoll, at the stored version and clock of each
// match with an open page, and sends the pages a change another process made (only on a
// shared database: alone, every change passes afterChange). It also forgets
// the versions sent to pages closed since.
func (b *Bot) pollWeb(ctx context.Context) {
	t := time.NewTicker(webPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w := b.web.Load()
		watched := map[storage.MatchID]bool{}
		for _, id := range w.srv.WatchedMatches() {
			watched[id] = true
			if !b.cfg.Shared {
				continue
			}
			m, err := b.store.Match(ctx, id)
			if err != nil {
				continue
			}
			w.mu.Lock()
			stale := w.seen[id].newer(m)
			w.mu.Unlock()
			if stale {
				// Guarded as a handler is: a panic here would otherwise end the
				// process with the runtime's trace, argument words and all.
				b.guard(ctx, "web poll", func(context.Context) { b.webChanged(newSnapshot(m, nil)) })
			}
		}
		w.mu.Lock()
		for id := range w.seen {
			if !watched[id] {
				delete(w.seen, id) // no page open: forget it
			}
		}
		w.mu.Unlock()
	}
}

// boardLink is the "Open board" link of viewer in m, "" when the web board
// is off. gen is the player's link generation (ignored for the public).
func (b *Bot) boardLink(m *storage.Match, viewer game.Viewer, gen uint32) string {
	w := b.web.Load()
	if w == nil {
		return ""
	}
	c := web.Capability{Match: m.ID, Viewer: viewer, Expires: b.now().Add(linkLifetime).Truncate(time.Second)}
	if _, ok := viewer.IsPlayer(); ok {
		c.Gen = gen
	}
	return w.signer.Link(w.publicURL, c)
}

// txtOpenBoard labels the link to the web board.
const txtOpenBoard = "Open board"

// withBoardLink adds an "Open board" link button for viewer to components
// (into the last row with room, else a row of its own), and returns them
// unchanged when the web board is off. A player's link goes in their DM only.
func (b *Bot) withBoardLink(p lang.Printer, components []discordgo.MessageComponent, m *storage.Match, viewer game.Viewer, gen uint32) []discordgo.MessageComponent {
	link := b.boardLink(m, viewer, gen)
	if link == "" {
		return components
	}
	return withButton(components, discordgo.Button{Label: p.Sprintf(txtOpenBoard), Style: discordgo.LinkButton, URL: link})
}

// withButton adds button to components: into the last row with room, else
// a row of its own while there is room for one.
func withButton(components []discordgo.MessageComponent, button discordgo.Button) []discordgo.MessageComponent {
	if n := len(components); n > 0 {
		if row, ok := components[n-1].(discordgo.ActionsRow); ok && len(row.Components) < 5 && !hasSelect(row) {
			row.Components = append(append([]discordgo.MessageComponent(nil), row.Components...), button)
			return append(append([]discordgo.MessageComponent(nil), components[:n-1]...), row)
		}
		if n >= 5 {
			return components
		}
	}
	return append(append([]discordgo.MessageComponent(nil), components...), discordgo.ActionsRow{Components: []discordgo.MessageComponent{button}})
}

// hasSelect reports whether a row holds a menu, which fills its row alone.
func hasSelect(row discordgo.ActionsRow) bool {
	for _, c := range row.Components {
		if _, ok := c.(discordgo.SelectMenu); ok {
			return true
		}
	}
	return false
}

// webActor applies the web board's actions through the bot's one path of each.
type webActor struct{ b *Bot }

// refusal turns an error the player may read into a *web.Refusal in their
// language; anything else stays an error, which web logs and answers plainly.
func (a webActor) refusal(ctx context.Context, m *storage.Match, side game.Side, err error) error {
	if err == nil {
		return nil
	}
	settings := a.b.settingsOf(ctx, m.Players[side].UserID)
	if errors.Is(err, storage.ErrStale) {
		return web.StaleRefusal(settings.Locale)
	}
	if text, ok := a.b.refusalText(lang.For(settings.Locale), settings.Numbering, err); ok {
		return &web.Refusal{Reason: text}
	}
	return err
}

// Refusals of the web board.
const (
	txtWebSetupOver = "The set-up phase of this match is over: the game has begun. Reload this page to see the board."
)

// setupOver refuses a set-up action on the web board of a match whose
// set-up phase is over: being played, or over too.
func (a webActor) setupOver(ctx context.Context, m *storage.Match, side game.Side) error {
	if !m.Phase.Active() {
		return a.refusal(ctx, m, side, game.ErrGameOver)
	}
	return a.refusal(ctx, m, side, friendly(txtWebSetupOver))
}

// gameOf returns m's game for the Basis of an action (nil before both
// set-ups are confirmed, as the page's state has none): the game kept with
// m's version when the bot's last change of it left one, so that a web
// action, like a Discord one, replays its match only in the store's own
// transaction; else one replay.
func (a webActor) gameOf(m *storage.Match) (*game.Game, error) {
	if m.Setups[game.Red].Status != storage.SetupConfirmed || m.Setups[game.Blue].Status != storage.SetupConfirmed {
		return nil, nil
	}
	snap, ok := a.b.snapshots.get(m.ID, m.Version)
	if !ok {
		snap = newSnapshot(m, nil)
	}
	return snap.gameAt(len(m.Log), a.b.countReplay)
}

// made checks that the player acts on the board they saw (at) in m, the
// match the action is made on.
func (a webActor) made(m *storage.Match, at web.Basis) error {
	g, err := a.gameOf(m)
	if err != nil {
		return err
	}
	return at(m, g)
}

func (a webActor) Move(ctx context.Context, m *storage.Match, at web.Basis, side game.Side, mv game.Move) error {
	if err := a.made(m, at); err != nil {
		return err
	}
	if m.Phase == storage.PhaseSetup {
		return a.refusal(ctx, m, side, storage.ErrNotStarted)
	}
	settings := a.b.settingsOf(ctx, m.Players[side].UserID)
	_, _, err := a.b.play(ctx, m, side, m.Version, mv, settings)
	if now := a.again(ctx, err, m, at); now != nil {
		_, _, err = a.b.play(ctx, now, side, now.Version, mv, settings)
	}
	return a.refusal(ctx, m, side, err)
}

// again is the match to try an action once more on, after it was refused
// as made at a version overtaken (storage.ErrStale: m changed since it was
// read): m as stored now, when the board the player acted on (at) is still
// its board, as after a change of the time alone (a gift of time, a
// reminder, a proposal to pause), which leaves what the page showed as it
// was; the Discord menus' move is tried once more so too. Else nil, and
// the action is refused as made on a board that changed.
func (a webActor) again(ctx context.Context, err error, m *storage.Match, at web.Basis) *storage.Match {
	if !errors.Is(err, storage.ErrStale) {
		return nil
	}
	now, err := a.b.store.Match(ctx, m.ID)
	if err != nil || a.made(now, at) != nil {
		return nil
	}
	return now
}

func (a webActor) Setup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup, confirm bool) error {
	if m.Phase != storage.PhaseSetup {
		return a.setupOver(ctx, m, side)
	}
	if m.Setups[side].Status == storage.SetupConfirmed {
		return a.refusal(ctx, m, side, storage.ErrSetupConfirmed)
	}
	// Like a set-up typed in the DM: stored as the draft, then, to confirm,
	// made final as the Confirm button of its preview would.
	drafted, err := a.b.storeDraft(ctx, m, side, s)
	if err != nil || !confirm {
		return a.refusal(ctx, m, side, err)
	}
	confirmed, err := a.b.confirmDraft(ctx, drafted, side, draftMark(drafted, side))
	if err != nil {
		return a.refusal(ctx, m, side, err)
	}
	a.b.afterChange(ctx, confirmed, nil)
	return nil
}

// CheckSetup is the web board's live check of a set-up: checkSetup, the
// check its draft and its confirmation take.
func (a webActor) CheckSetup(ctx context.Context, m *storage.Match, side game.Side, s game.Setup) error {
	return a.refusal(ctx, m, side, checkSetup(m.Rules, s))
}

// RandomSetup draws a set-up as the Random button does, and stores it as
// side's draft as that button does.
func (a webActor) RandomSetup(ctx context.Context, m *storage.Match, side game.Side) (game.Setup, error) {
	if err := a.settingUp(ctx, m, side); err != nil {
		return game.Setup{}, err
	}
	s := randomSetup(m, side)
	if _, err := a.b.storeDraft(ctx, m, side, s); err != nil {
		return game.Setup{}, a.refusal(ctx, m, side, err)
	}
	return s, nil
}

// settingUp refuses a set-up action once side's set-up phase is over: a
// player's saved set-ups are the secrets of their next matches too, so a
// link shows them only while they are of use.
func (a webActor) settingUp(ctx context.Context, m *storage.Match, side game.Side) error {
	if m.Phase != storage.PhaseSetup {
		return a.setupOver(ctx, m, side)
	}
	if m.Setups[side].Status == storage.SetupConfirmed {
		return a.refusal(ctx, m, side, storage.ErrSetupConfirmed)
	}
	return nil
}

// SavedSetups lists the player's saved set-ups for this match's army, as the
// set-up invite's menu does: the first choice first.
func (a webActor) SavedSetups(ctx context.Context, m *storage.Match, side game.Side) ([]web.SavedSetup, error) {
	if err := a.settingUp(ctx, m, side); err != nil {
		return nil, err
	}
	settings := a.b.settingsOf(ctx, m.Players[side].UserID)
	var out []web.SavedSetup
	for _, s := range settings.Setups {
		if s.Army != m.Rules.Army {
			continue
		}
		saved := web.SavedSetup{Name: s.Name, Setup: s.Setup, First: settings.Defaults[m.Rules.Variant] == s.Name}
		if saved.First {
			out = append([]web.SavedSetup{saved}, out...)
			continue
		}
		out = append(out, saved)
	}
	return out, nil
}

// SaveSetup keeps a set-up the rules accept among the player's saved ones,
// as `/stratego settings save_setup` keeps a confirmed one.
func (a webActor) SaveSetup(ctx context.Context, m *storage.Match, side game.Side, name string, s game.Setup) error {
	if err := a.settingUp(ctx, m, side); err != nil {
		return err
	}
	if err := checkSetup(m.Rules, s); err != nil {
		return a.refusal(ctx, m, side, err)
	}
	_, err := a.b.updatePlayer(ctx, m.Players[side].UserID, func(p *storage.PlayerSettings) error {
		err := p.SaveSetup(storage.SavedSetup{Name: name, Variant: m.Rules.Variant, Army: m.Rules.Army, Setup: s, Saved: a.b.now()})
		if errors.Is(err, storage.ErrTooManySetups) {
			return friendlyf(txtTooManySetups, storage.MaxSavedSetups)
		}
		return err
	})
	return a.refusal(ctx, m, side, err)
}

func (a webActor) Resign(ctx context.Context, m *storage.Match, at web.Basis, side game.Side) error {
	return a.act(ctx, m, at, side, storage.ActResign)
}

func (a webActor) Draw(ctx context.Context, m *storage.Match, at web.Basis, side game.Side, d web.DrawAnswer) error {
	kind := storage.ActOfferDraw
	switch d {
	case web.DrawAccept:
		kind = storage.ActAcceptDraw
	case web.DrawDecline:
		kind = storage.ActDeclineDraw
	}
	return a.act(ctx, m, at, side, kind)
}

// GiveTime gives side's opponent more time as /stratego give_time does:
// the one store action, made for the gifts the page showed (given), its
// refusals in the player's language, and the notices afterChange sends
// (the opponent's DM).
func (a webActor) GiveTime(ctx context.Context, m *storage.Match, side game.Side, given int) error {
	changed, err := a.b.giveTime(ctx, m, side, given)
	var already givenAlready
	if errors.As(err, &already) {
		p := lang.For(a.b.settingsOf(ctx, m.Players[side].UserID).Locale)
		return &web.Refusal{Reason: a.b.givenAlreadyText(p, already.now, side)}
	}
	if err != nil {
		return a.refusal(ctx, m, side, err)
	}
	a.b.afterChange(ctx, changed, nil)
	return nil
}

// Pause proposes or answers a pause as /stratego pause and its buttons do
// (recordPause): the same refusals in the player's language, a proposal
// changed since the page showed it refused with the words of a button drawn
// for it, and the notices afterChange sends (the opponent's DM with its
// buttons, or both players' and the channel's once agreed to).
func (a webActor) Pause(ctx context.Context, m *storage.Match, side game.Side, answer web.PauseAnswer, days int) error {
	p := func() lang.Printer { return lang.For(a.b.settingsOf(ctx, m.Players[side].UserID).Locale) }
	act := storage.Action{Kind: storage.ActOfferPause, Side: side, Days: days}
	switch answer {
	case web.PausePropose:
		if err := a.b.pauseAllowed(ctx, m); err != nil {
			return a.refusal(ctx, m, side, err)
		}
	case web.PauseAccept, web.PauseDecline:
		act = storage.Action{Kind: storage.ActAcceptPause, Side: side, Days: days}
		if answer == web.PauseDecline {
			act.Kind = storage.ActDeclinePause
		}
		if changed := a.b.pauseOfferChanged(p(), m, side, strconv.Itoa(days)); changed != "" {
			return &web.Refusal{Reason: changed}
		}
	}
	changed, err := a.b.recordPause(ctx, m.ID, act)
	var agreed agreedAlready
	if errors.As(err, &agreed) {
		// The page writes Discord's time markup in milliseconds (see web's texts).
		return &web.Refusal{Reason: p().Sprintf(txtPausedUntil, strconv.FormatInt(agreed.until.UnixMilli(), 10))}
	}
	if text := a.b.pauseChangedText(p(), err, act); text != "" {
		return &web.Refusal{Reason: text}
	}
	if text := a.b.pauseStandsText(p(), err, true); text != "" {
		return &web.Refusal{Reason: text}
	}
	if err != nil {
		return a.refusal(ctx, m, side, err)
	}
	a.b.afterChange(ctx, changed, nil)
	return nil
}

func (a webActor) act(ctx context.Context, m *storage.Match, at web.Basis, side game.Side, kind storage.ActionKind) error {
	if err := a.made(m, at); err != nil {
		return err
	}
	changed, err := a.b.recordAction(ctx, m.ID, m.Version, side, kind)
	if now := a.again(ctx, err, m, at); now != nil {
		changed, err = a.b.recordAction(ctx, now.ID, now.Version, side, kind)
	}
	if err != nil {
		return a.refusal(ctx, m, side, err)
	}
	a.b.afterChange(ctx, changed, nil)
	return nil
}

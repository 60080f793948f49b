package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// runOutbox delivers what the changes recorded in the store's outbox: it
// sleeps until the next notice may be tried (or a change nudges it), delivers
// every due one, and sleeps again. The outbox lives in storage, so a restart
// resumes it where it stopped.
func (b *Bot) runOutbox(ctx context.Context) {
	for {
		b.deliverDue(ctx)
		var wait <-chan time.Time
		next, ok, err := b.outboxNext(ctx)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			b.log.Error("reading the outbox failed", "error", err)
			wait = time.After(time.Minute)
		case ok:
			wait = time.After(max(0, next.Sub(b.now())))
		}
		if b.cfg.Shared {
			wait = sooner(wait, sharedPoll)
		}
		select {
		case <-ctx.Done():
			return
		case <-b.outboxWake:
		case <-wait:
		}
	}
}

// outboxNext is when the outbox's loop next delivers: when the next notice
// may be tried; false: only when nudged. A process that does not lead
// delivers nothing (another does: a notice due stays due until that one
// delivers it, and this one would come back for it at once, again and
// again), and reads nothing: it is nudged when it takes the lease
// (renewLease).
//
// A notice whose outcome could not be recorded (the database refuses it)
// stays due; its pass leaves it for the next, and the loop would come back
// for it at once, again and again, sending it each time (the same nonce
// makes no second message only for a few minutes). So it is held back
// (outboxHolds, keyed by notice id) as a timer that keeps failing is
// (timerholds.go), once tried again at once twice (a process may stop
// right after Discord answered): a minute, then twice as long each time,
// up to an hour; its queue waits behind it, the others go on. So is a
// notice whose record cannot be read at all (storage.UnreadableError:
// damaged, or written by a newer strategobot), which DueNotices names
// beside the others.
func (b *Bot) outboxNext(ctx context.Context) (time.Time, bool, error) {
	if !b.leading.Load() {
		return time.Time{}, false, nil
	}
	now := b.now()
	held := b.outboxHolds.heldIDs(now)
	until, holding := b.outboxHolds.next()
	if len(held) == 0 {
		next, ok, err := b.store.NextNotice(ctx)
		if holding && (!ok || until.Before(next)) {
			next, ok = until, true // a hold ended: its notice is tried again
		}
		return next, ok, err
	}
	// The earliest notice not held back, as far ahead as any may wait.
	// One that cannot be read is held back by the pass that meets it.
	ahead, err := b.readableDue(ctx, farFuture, outboxLookAhead, held)
	if err != nil {
		return time.Time{}, false, err
	}
	next := until
	var dueNow map[uint64]bool
	for _, n := range ahead {
		at := n.NextTry
		if (len(n.Until) > 0 || n.After != 0) && !at.After(now) {
			// Read as far ahead as farFuture, past its WaitEnds, an
			// announcement waits for nothing; at now it may still wait
			// for its games' call-offs or its game's end (as NextNotice
			// knows), and then it is not due before WaitEnds, or the
			// notices it waits for, which the loop comes back after.
			if dueNow == nil {
				due, err := b.readableDue(ctx, now, outboxLookAhead, held)
				if err != nil {
					return time.Time{}, false, err
				}
				dueNow = map[uint64]bool{}
				for _, d := range due {
					dueNow[d.ID] = true
				}
			}
			if !dueNow[n.ID] {
				at = storage.WaitEnds(&n)
			}
		}
		if at.Before(next) {
			next = at
		}
	}
	return next, true, nil
}

// readableDue returns the notices due at at, at most limit, but for those
// of skip and those DueNotices cannot read (storage.UnreadableError): as
// those count in its limit, an answer that names some is asked again with
// them skipped, until one names none new, so that however many come first
// they take no place of one that can be read.
func (b *Bot) readableDue(ctx context.Context, at time.Time, limit int, skip []uint64) ([]storage.Notice, error) {
	skip = slices.Clip(skip)
	for {
		due, err := b.store.DueNotices(ctx, at, limit, skip...)
		var bad *storage.UnreadableError
		if !errors.As(err, &bad) {
			return due, err
		}
		known := len(skip)
		for _, id := range bad.IDs {
			if !slices.Contains(skip, id) {
				skip = append(skip, id)
			}
		}
		if len(skip) == known {
			return due, nil
		}
	}
}

// outboxLookAhead is how many notices outboxNext reads while some are held
// back: the earliest may be an announcement still waiting for call-offs.
const outboxLookAhead = 64

// outboxWorkers bounds the notices delivered at once. Each is the oldest of
// its own queue (a player or the channel of one match), so they never race.
// Practice matches' notices take at most practiceWorkers of them and come
// after people's: a person's board never waits behind the computer's games
// (a practice finale's replay keeps a worker busy for a while).
const (
	outboxWorkers   = 8
	practiceWorkers = outboxWorkers - 2
)

// lanes counts the notices being delivered: all of them, and practice
// matches'.
type lanes struct{ running, practice int }

// admits says whether a worker may start on n now.
func (l lanes) admits(n storage.Notice) bool {
	return l.running < outboxWorkers && (!n.Practice || l.practice < practiceWorkers)
}

// add counts n in (+1) or out (-1).
func (l *lanes) add(practice bool, k int) {
	l.running += k
	if practice {
		l.practice += k
	}
}

// peopleFirst orders due notices: matches between people before practice
// matches, each in the store's order.
func peopleFirst(a, b storage.Notice) int {
	switch {
	case a.Practice == b.Practice:
		return 0
	case b.Practice:
		return -1
	}
	return 1
}

// deliverDue delivers the notices due now until none is left. Queues move on
// independently: as soon as one notice is done, the next of its queue is
// due, without waiting for a slow one elsewhere (a replay being drawn). One
// pass runs at a time; when it returns, every notice due when it started has
// been sent or put off (tests run one to know the messages are out).
func (b *Bot) deliverDue(ctx context.Context) {
	if !b.leading.Load() {
		return // another process runs the outbox
	}
	b.outboxPass.Lock()
	defer b.outboxPass.Unlock()
	type outcome struct {
		queue    string
		handled  handled
		practice bool
	}
	busy := map[string]uint64{}  // queues with a notice being delivered, and its id
	stuck := map[string]uint64{} // queues whose outcome could not be recorded, and its id: left for a later pass (outboxNext)
	now := b.now()
	held := b.outboxHolds.heldIDs(now)
	defer b.outboxHolds.dropEnded(now)
	// Queues waiting for a DM channel, with the user it is with. A queue
	// tries again as soon as its channel is open. Of the others one at a
	// time tries again, when no channel is being opened, and so opens the
	// next: only one is opened at a time, so waking them all would only put
	// them back again, a number of times that grows with the square of a
	// crowd of new players.
	waiting := map[string]string{}
	// The waiting queue last let go to open a DM channel, and the count of
	// openings begun then: the next may go once an opening has begun since,
	// and is done, or once that queue is back.
	opener, openerAt := "", uint64(0)
	var skip []uint64
	var unreadable []uint64 // the notices met in this pass whose record cannot be read
	finished := make(chan outcome)
	var busyLanes lanes
	for {
		// met: this read of the due notices named some that cannot be
		// read, not met before in the pass. They count in its limit, so
		// that many of them may leave no place for one that can: with
		// nothing to deliver, the pass reads again past them rather than
		// end, until every notice due at its start is sent or put off.
		met := false
		if busyLanes.running < outboxWorkers && ctx.Err() == nil {
			// The heads of the queues being delivered, or left for the next
			// pass, are still due: they are skipped unread. The waiting
			// queues' heads are due too: look past them, or a crowd of them
			// would hold back every other notice, and a little further for
			// people's notices.
			free := outboxWorkers - busyLanes.running
			skip = skip[:0]
			for _, id := range busy {
				skip = append(skip, id)
			}
			for _, id := range stuck {
				skip = append(skip, id)
			}
			skip = append(skip, held...)
			skip = append(skip, unreadable...)
			due, err := b.store.DueNotices(ctx, b.now(), len(waiting)+2*free+practiceWorkers, skip...)
			var bad *storage.UnreadableError
			if errors.As(err, &bad) {
				// Held back, as a notice whose outcome cannot be
				// recorded is: its queue waits behind it, the others go
				// on. Logged as each hold begins, without the record.
				for k, id := range bad.IDs {
					if slices.Contains(unreadable, id) {
						continue
					}
					met = true
					unreadable = append(unreadable, id)
					if until := b.outboxHolds.failed(timerKey{kind: holdNotice, id: id}, now); until.After(now) {
						b.log.Error("a notice cannot be read; held back, its queue behind it", "notice", id, "error", bad.Errs[k], "retry", until)
					}
				}
				err = nil
			}
			if err != nil && ctx.Err() == nil { // not the bot stopping mid-query
				b.log.Error("reading due notices failed", "error", err)
			}
			slices.SortStableFunc(due, peopleFirst)
			for _, n := range due {
				q := storage.NoticeQueue(&n)
				_, delivering := busy[q]
				_, left := stuck[q]
				if delivering || left || !busyLanes.admits(n) {
					continue
				}
				if user, ok := waiting[q]; ok {
					if _, open := b.dmChannels.Load(user); !open {
						begun := b.dmOpenings.Load()
						if b.dmOpening.Load() || (opener != "" && begun == openerAt) {
							continue
						}
						opener, openerAt = q, begun
					}
				}
				delete(waiting, q)
				busy[q] = n.ID
				busyLanes.add(n.Practice, +1)
				go func() {
					o := outcome{queue: q, practice: n.Practice} // unrecorded if deliver panics
					b.guard(ctx, "outbox", func(ctx context.Context) { o.handled = b.deliver(ctx, n) })
					finished <- o
				}()
			}
		}
		if busyLanes.running == 0 {
			if met {
				continue
			}
			return
		}
		var o outcome
		select {
		case o = <-finished:
		case <-b.outboxWake:
			// New notices were recorded: start on them now, not when a
			// worker is done (one may be busy for a while: a replay, a DM
			// channel being opened).
			continue
		}
		busyLanes.add(o.practice, -1)
		id := busy[o.queue]
		delete(busy, o.queue)
		if o.queue == opener {
			opener = ""
		}
		switch {
		case o.handled.waitFor != "":
			waiting[o.queue] = o.handled.waitFor
		case !o.handled.recorded:
			stuck[o.queue] = id
			until := b.outboxHolds.failed(timerKey{kind: holdNotice, id: id}, now)
			b.log.Warn("a notice's delivery could not be recorded; tried again later", "notice", id, "retry", until)
		default:
			b.outboxHolds.clear(timerKey{kind: holdNotice, id: id})
		}
	}
}

// outgoing is one message of a notice: created in a channel, or an edit.
type outgoing struct {
	to   audienceOf // who: resolved to a channel when it is sent
	send *discordgo.MessageSend
	edit *discordgo.MessageEdit
	// text is what a match's channel is sent instead, when it may not
	// attach the pictures: the content with their alt texts, and a note
	// for its moderators (withText); "" for other messages.
	text string
}

// audienceOf is where a message goes: a player's DM, or a channel.
type audienceOf struct {
	user    string // a player, by DM
	channel string // otherwise, this channel
}

// handled is what became of a notice a worker took: recorded, it was sent,
// put off or given up, and the outcome is stored; not, the outcome could not
// be stored and the notice is left for the next pass; or it waits for the
// DM channel with waitFor, which must be opened while another is being
// opened (waitingFor), and is tried again when that is done.
type handled struct {
	recorded bool
	waitFor  string
}

// deliver sends a notice's messages from the first not yet sent, and records
// the outcome: done, put off to be retried, or given up with what the player
// must be told instead. A notice that starts a clock is done when Discord
// has answered its last part, or when it is given up: the player's time
// counts from then, not from when the send began.
func (b *Bot) deliver(ctx context.Context, n storage.Notice) handled {
	ctx = withSettingsMemo(ctx)
	now := b.now()
	owed, err := b.followersOwed(ctx, n)
	if err != nil {
		b.log.Warn("reading a match's followers failed; the notice will be tried again", "notice", n.ID, "match", n.Match, "error", err)
		return b.retry(ctx, n, now.Add(backoff(n.Attempts+1, 0)), "putting off a notice")
	}
	// A tournament's notice is told from its tournament, read once for the
	// delivery.
	var tour *storage.Tournament
	var parts []outgoing
	if n.Tournament != 0 {
		tour, err = b.noticeTournament(ctx, n)
	}
	lost, skip := lostChannelOf(n, tour, now)
	switch {
	case err != nil:
		// Said below, as a notice that cannot be composed.
	case skip:
		// Its channel is known to be out of reach: told elsewhere at once,
		// rather than after one more refusal there.
		follow := b.instead(n, tour, tour.ChannelDeleted, now)
		b.metrics.notice("unreachable")
		return b.record(ctx, "giving up a notice", b.noticeDone(ctx, n, now, append(follow, owed...)...))
	default:
		parts, err = b.compose(ctx, n, tour, now)
	}
	if w := (waitingFor{}); errors.As(err, &w) {
		return handled{waitFor: w.user}
	}
	if u := (storeUnread{}); errors.As(err, &u) {
		// The database did not answer: what the notice tells is still
		// there, to be read again later, not a notice to drop.
		b.log.Warn("reading what a notice tells failed; it will be tried again", "notice", n.ID, "event", n.Event, "match", n.Match, "tournament", n.Tournament, "error", err)
		return b.retry(ctx, n, now.Add(backoff(n.Attempts+1, 0)), "putting off a notice")
	}
	if err != nil {
		// The match is gone or does not replay: nothing can be said of it.
		b.log.Error("a notice cannot be composed; it is dropped", "notice", n.ID, "event", n.Event, "match", n.Match, "error", err)
		return b.record(ctx, "dropping a notice", b.noticeDone(ctx, n, now, owed...))
	}
	var lastAt time.Time // when the last part arrived, if the gateway told (madeDMs)
	for i := n.Sent; i < len(parts); i++ {
		nonce := nonceOf(n.ID, i)
		sent := b.sendPartOrOther(ctx, n, parts[i], nonce, now)
		made, madeAt, err := sent.made, sent.madeAt, sent.err
		owed = append(owed, sent.owed...)
		if w := (waitingFor{}); errors.As(err, &w) {
			return handled{waitFor: w.user} // the messages before it are recorded as sent
		}
		if b.cutShort(err) {
			// The stop cut the request: Discord may or may not have the
			// message. Left as it stands (no attempt counted), it is sent
			// again after the restart, and the nonce keeps a create that
			// Discord took from showing twice.
			return handled{}
		}
		if err == nil {
			b.made.forget(nonce)
			lastAt = madeAt
			if n.Event == storage.EventChannelBack && parts[i].send != nil && made != "" {
				// The board posted anew is the one a live board edits.
				b.backLive(ctx, n.Match, made)
			}
			if n.Event == storage.EventCreated && n.To == storage.AudiencePublic && made != "" {
				b.seekAnnounced(ctx, n.Match, made)
			}
			if (n.Event == storage.EventDrawOffered || n.Event == storage.EventPauseOffered) && parts[i].send != nil && made != "" {
				// The DM that asks is edited once the offer is settled,
				// from what it said: made on an earlier attempt, it was
				// worded then, about when the gateway told of it.
				asked := now
				if sent.earlier {
					asked = madeAt
				}
				if err := b.recordAsked(ctx, n, made, asked); err != nil {
					return b.record(ctx, "recording the DM that asked about an offer", err)
				}
			}
			if parts[i].to.user != "" && parts[i].send != nil {
				b.setDMBlocked(ctx, parts[i].to.user, time.Time{})
			}
			if i+1 < len(parts) {
				if err := b.store.NoticeProgress(ctx, n.ID, i+1); err != nil {
					return b.record(ctx, "recording a sent message", err)
				}
			}
			continue
		}
		b.metrics.discordError(err)
		if failure, _ := classify(err); failure != retryLater && n.Event == storage.EventOfferSettled {
			// The DM asking about a settled offer cannot be edited:
			// deleted by its reader (Unknown Message), or out of reach.
			// Nothing is lost, and nobody is told of it.
			b.metrics.notice("unreachable")
			b.log.Info("the DM that asked about an offer cannot be edited; it is left as it is", "notice", n.ID, "match", n.Match, "error", err)
			return b.record(ctx, "giving up a notice", b.noticeDone(ctx, n, b.now(), owed...))
		}
		switch failure, asked := classify(err); failure {
		case retryLater:
			b.metrics.notice("retried")
			wait := backoff(n.Attempts+1, asked)
			b.log.Warn("a message could not be sent; it will be tried again", "notice", n.ID, "event", n.Event, "match", n.Match, "attempt", n.Attempts+1, "in", wait, "error", err)
			return b.retry(ctx, n, now.Add(wait), "putting off a notice")
		case recipientUnreachable:
			b.made.forget(nonce)
			b.metrics.notice("unreachable")
			b.log.Warn("a message cannot reach its recipient", "notice", n.ID, "event", n.Event, "match", n.Match, "error", err)
			follow, retry := b.fallback(ctx, n, tour, parts[i], err, now)
			if retry {
				return b.retry(ctx, n, now, "sending a notice elsewhere")
			}
			at := b.now()
			follow = append(follow, lateBoardGivenUp(n, at)...)
			return b.record(ctx, "giving up a notice", b.noticeDone(ctx, n, at, append(follow, owed...)...))
		default:
			// Refused even as plain text: the notice is given up, and its
			// player (or the channel) is told where to see the match.
			b.made.forget(nonce)
			b.metrics.notice("refused")
			b.log.Warn("Discord refused a message; the notice is given up",
				append([]any{"notice", n.ID, "event", n.Event, "match", n.Match}, refusalOf(err)...)...)
			at := b.now()
			follow := append(lateBoardGivenUp(n, at), refusedNote(n, at)...)
			return b.record(ctx, "giving up a notice", b.noticeDone(ctx, n, at, append(follow, owed...)...))
		}
	}
	// The player's time starts now, when Discord has answered the last
	// part: the minutes a slow or rate-limited send took are not theirs.
	// A part whose answer was lost arrived when the gateway said so.
	arrived := b.now()
	if !lastAt.IsZero() {
		arrived = lastAt
	}
	if n.Event == storage.EventChannelBack && len(parts) > 0 {
		owed = append(owed, toldChannelBack(n, arrived)...)
	}
	err = b.noticeDone(ctx, n, arrived, append(lateBoard(n, arrived), owed...)...)
	if err == nil && len(owed) > 0 && (n.Event == storage.EventFinale || n.Event == storage.EventAbandoned) {
		b.unfollowEnded(ctx, n.Match, owed)
	}
	if err == nil && lost {
		b.channelBack(ctx, n.Tournament)
	}
	if err == nil {
		b.metrics.notice("delivered")
		if n.To == storage.AudienceRed { // one notice of each event per match
			switch n.Event {
			case storage.EventStarted:
				b.metrics.match("started")
			case storage.EventFinale:
				b.metrics.match("finished")
			case storage.EventAbandoned:
				b.metrics.match("abandoned")
			}
		}
	}
	return b.record(ctx, "recording a delivered notice", err)
}

// partSent is what became of one part of a notice: the message Discord made
// or edited (made: when it said, or the gateway told of the create), when
// it arrived if the gateway told (madeAt), whether it was made on an
// earlier attempt, worded then, the notices owed for how it went, and the
// error left.
type partSent struct {
	made    string
	madeAt  time.Time
	earlier bool
	owed    []storage.Notice
	err     error
}

// sendPartOrOther sends part of n with nonce, and when Discord refuses it
// in a way another form of it can pass, that form: the message without its
// pictures where the bot may not attach files, the live board posted anew
// where its message was deleted, and plain text where Discord refused the
// message itself. A create whose answer was lost counts as made when the
// gateway told of it (madeDMs), or when a retry names it Unknown Message.
func (b *Bot) sendPartOrOther(ctx context.Context, n storage.Notice, part outgoing, nonce string, now time.Time) partSent {
	var (
		made    string // the message made or edited, when Discord or the gateway said
		madeAt  time.Time
		earlier bool
		owed    []storage.Notice
		err     error
	)
	if part.to.user != "" && part.send != nil {
		b.made.expect(nonce) // a DM's create is seen on the gateway too
	}
	if dm, ok := b.made.madeAt(nonce); ok {
		made, madeAt, earlier = dm.id, dm.at, true // made on an earlier attempt, whose answer was lost
	} else {
		made, err = b.sendPart(ctx, part, nonce)
		if dm, ok := b.made.madeAt(nonce); ok && err != nil {
			made, err, madeAt = dm.id, nil, dm.at // made, though its answer was lost
		}
	}
	if bare, ok := withoutPicture(n, part, err); ok && b.mayPost(part.to) {
		// The bot may post in the channel but not attach files: the
		// standings' text table says what their picture shows, and a
		// board's alt text what it shows. The message goes without
		// them; the organiser is told what to grant, a match's
		// channel in the message itself.
		if made, err = b.sendPart(ctx, bare, nonce); err == nil && n.Tournament != 0 {
			owed = append(owed, picturesRefused(n, now))
		}
	}
	reposted := false
	if post, ok := liveGone(n, part, err); ok {
		reposted = true
		// The live message was deleted (a moderator tidying the
		// channel): the board is posted anew, and that message is
		// the one edited from then on.
		var id string
		id, err = sendOnce(b.s, part.to.channel, nonce, post, b.untilStop())
		if bare, ok := withoutPicture(n, outgoing{to: part.to, send: post, text: part.text}, err); ok && b.mayPost(part.to) {
			// Nor may the bot attach files there: the board is posted
			// as its text, as the edit would have been.
			id, err = sendOnce(b.s, part.to.channel, nonce, bare.send, b.untilStop())
		}
		if plain, ok := plainPart(outgoing{to: part.to, send: post}, err); ok {
			// Discord refused the board posted anew itself: it goes as
			// plain text, as the edit would have (below), and that
			// message is the live one. Discord made nothing, so the
			// nonce is still unused.
			b.metrics.discordError(err)
			b.log.Warn("Discord refused a message; it is sent again as plain text",
				append([]any{"notice", n.ID, "event", n.Event, "match", n.Match}, refusalOf(err)...)...)
			id, err = sendOnce(b.s, part.to.channel, nonce, plain.send, b.untilStop())
		}
		if err == nil {
			b.replaceLiveMessage(ctx, n.Match, part.edit.ID, id)
		}
	}
	if plain, ok := plainPart(part, err); ok && !reposted {
		// Discord refused the message itself (a picture too large, a
		// form it does not take): it goes again as its text and the
		// picture's alt text, without what it may have refused. The
		// nonce is still unused, Discord having made nothing, and keeps
		// the second try from showing twice after a restart.
		b.metrics.discordError(err)
		b.log.Warn("Discord refused a message; it is sent again as plain text",
			append([]any{"notice", n.ID, "event", n.Event, "match", n.Match}, refusalOf(err)...)...)
		if made, err = b.sendPart(ctx, plain, nonce); err != nil {
			if dm, ok := b.made.madeAt(nonce); ok {
				made, err, madeAt = dm.id, nil, dm.at // made, though its answer was lost
			}
		}
	}
	if part.send != nil && discordCode(err) == discordgo.ErrCodeUnknownMessage {
		// A create that Discord answers Unknown Message names, by
		// its nonce, a message it made on an earlier attempt (whose
		// answer was lost) and that was deleted since: it arrived.
		err = nil
	}
	return partSent{made: made, madeAt: madeAt, earlier: earlier, owed: owed, err: err}
}

// followed reports whether a match's followers are sent the channel's
// notices of an event too: boards and endings, not the bot's own notes.
func followed(e storage.Event) bool {
	switch e {
	case storage.EventStarted, storage.EventMove, storage.EventEnded, storage.EventFinale, storage.EventAbandoned:
		return true
	}
	return false
}

// followersOwed returns what a notice to the channel owes the match's
// followers: the same notice to each of them by DM, recorded as the channel's
// is finished (delivered or given up), so that a follower is told of changes
// in order and exactly once, like everyone else.
func (b *Bot) followersOwed(ctx context.Context, n storage.Notice) ([]storage.Notice, error) {
	if n.To != storage.AudiencePublic || !followed(n.Event) {
		return nil, nil
	}
	users, err := b.store.Followers(ctx, n.Match)
	if err != nil {
		return nil, err
	}
	owed := make([]storage.Notice, 0, len(users))
	for _, u := range users {
		owed = append(owed, storage.Notice{Match: n.Match, Event: n.Event, To: storage.AudienceFollower, Follower: u, Log: n.Log, Version: n.Version, At: n.At})
	}
	return owed, nil
}

// unfollowEnded forgets the followers of a match that is over, once their
// last notices are owed: nothing more will be sent them.
func (b *Bot) unfollowEnded(ctx context.Context, id storage.MatchID, owed []storage.Notice) {
	for _, f := range owed {
		if err := b.store.Follow(ctx, id, f.Follower, false); err != nil {
			b.log.Warn("forgetting a follower of an ended match failed", "match", id, "error", err)
		}
	}
}

// retry puts n off until at and records it; what names the step for the log
// should the write fail.
func (b *Bot) retry(ctx context.Context, n storage.Notice, at time.Time, what string) handled {
	_, err := b.store.NoticeRetry(ctx, n.ID, at)
	return b.record(ctx, what, err)
}

// record logs a failed outbox write; it says whether the outcome was recorded.
func (b *Bot) record(ctx context.Context, what string, err error) handled {
	if err == nil {
		return handled{recorded: true}
	}
	if ctx.Err() == nil {
		b.log.Error(what+" failed", "error", err)
	}
	return handled{}
}

// sendPart sends one message: a create carries the nonce, so that sending it
// again never makes a second message; an edit is the same however often it is made.
func (b *Bot) sendPart(ctx context.Context, p outgoing, nonce string) (string, error) {
	id, err := b.sendPartTo(ctx, p, nonce)
	if code := discordCode(err); p.to.user != "" && (code == discordgo.ErrCodeUnknownChannel || code == discordgo.ErrCodeMissingAccess) {
		// The DM channel kept for the user is none of this bot's (the
		// database was moved to another application): it is opened anew.
		// Discord made nothing, so the nonce is still unused.
		b.forgetDMChannel(ctx, p.to.user)
		if p.send != nil {
			rewind(p.send.Files)
		}
		id, err = b.sendPartTo(ctx, p, nonce)
	}
	return id, err
}

// sendPartTo is sendPart in the DM channel known for its user. It returns
// the id of the message made or edited.
func (b *Bot) sendPartTo(ctx context.Context, p outgoing, nonce string) (string, error) {
	channel := p.to.channel
	if p.to.user != "" {
		var err error
		if channel, err = b.dmChannel(ctx, p.to.user); err != nil {
			return "", err
		}
	}
	if p.edit != nil {
		p.edit.Channel = channel
		err := b.editMessage(p.edit)
		if p.to.user == "" && discordCode(err) == discordgo.ErrCodePerformedOperationOnArchivedThread {
			// The message is in a thread that archived itself after a
			// quiet spell: a post there would unarchive it, an edit does
			// not. The bot unarchives it as a member would, and edits
			// again; a thread locked too stays archived, and the edit's
			// refusal stands.
			if err = b.unarchive(channel, err); err == nil {
				rewind(p.edit.Files)
				err = b.editMessage(p.edit)
			}
		}
		return p.edit.ID, err
	}
	return sendOnce(b.s, channel, nonce, p.send, b.untilStop())
}

// editMessage edits a message, replacing its pictures when e has files.
func (b *Bot) editMessage(e *discordgo.MessageEdit) error {
	if len(e.Files) > 0 {
		_, err := b.sendFiles("PATCH", discordgo.EndpointChannelMessage(e.Channel, e.ID), e, e.Files)
		return err
	}
	_, err := b.s.ChannelMessageEditComplex(e, b.untilStop())
	return err
}

// unarchive unarchives thread, whose message an edit could not change
// (refused, Discord's 50083): nil once it is active again. Discord lets
// the bot unarchive a thread it may post in that is not locked; refused
// (locked, or the bot may not post there), the edit's refusal is returned;
// failed in a way that may heal (a 5xx, a timeout), that failure, so that
// the notice is tried again rather than given up.
func (b *Bot) unarchive(thread string, refusal error) error {
	active := false
	_, err := b.s.ChannelEdit(thread, &discordgo.ChannelEdit{Archived: &active}, b.untilStop())
	if err == nil {
		b.log.Info("a thread had archived itself; unarchived to edit a message in it", "channel", thread)
		return nil
	}
	if failure, _ := classify(err); failure == retryLater {
		return err
	}
	b.log.Info("a thread is archived and the bot may not unarchive it", "channel", thread, "error", err)
	return refusal
}

// liveGone reports whether p, the edit of a match's live message, failed
// because the message is gone, and returns the board as a message to post
// instead.
func liveGone(n storage.Notice, p outgoing, sendErr error) (*discordgo.MessageSend, bool) {
	if n.Match == 0 || n.To != storage.AudiencePublic || p.edit == nil || discordCode(sendErr) != discordgo.ErrCodeUnknownMessage {
		return nil, false
	}
	e := p.edit
	rewind(e.Files) // read by the refused edit
	post := &discordgo.MessageSend{Files: e.Files, AllowedMentions: e.AllowedMentions}
	if e.Content != nil {
		post.Content = *e.Content
	}
	return post, true
}

// recordAsked records message, made at now for n (a draw offer or a
// proposal to pause), as the DM that asked about its offer, which is
// edited once the offer is settled (EventOfferSettled). It returns the
// error of a database that did not record it (storeUnread): the notice is
// then left for a later pass, whose create Discord answers, by its nonce,
// with the same message. A match gone, unreadable or refused for good
// (ErrInvalid) has nothing a later pass could record.
func (b *Bot) recordAsked(ctx context.Context, n storage.Notice, message string, now time.Time) error {
	errKept := errors.New("the DM is recorded already")
	d := storage.OfferDM{Offer: n.Log, Message: message, At: now}
	m, err := b.store.UpdateMatch(ctx, n.Match, 0, func(x *storage.Match) error {
		if !x.RecordAsked(d) {
			return errKept
		}
		return nil
	})
	switch {
	case errors.Is(err, errKept):
	case err != nil:
		// A match the store refuses for good (ErrInvalid) would be refused
		// on every later pass too: the notice is done, not resent.
		if u := (storeUnread{}); errors.As(unread(err), &u) && !errors.Is(err, storage.ErrInvalid) {
			return err
		}
		b.log.Warn("the DM that asked about an offer cannot be recorded; it keeps its buttons once the offer is settled", "match", n.Match, "error", err)
	default:
		b.afterChange(ctx, m, nil)
	}
	return nil
}

// replaceLiveMessage records id as match's live message in place of old,
// unless another has replaced old already.
func (b *Bot) replaceLiveMessage(ctx context.Context, match storage.MatchID, old, id string) {
	errReplaced := errors.New("the live message was replaced already")
	m, err := b.store.UpdateMatch(ctx, match, 0, func(x *storage.Match) error {
		if x.LiveMessage != old {
			return errReplaced
		}
		x.LiveMessage = id
		return nil
	})
	switch {
	case errors.Is(err, errReplaced):
	case err != nil:
		b.log.Warn("recording the match's new live message failed; the next board is posted anew", "match", match, "error", err)
	default:
		b.afterChange(ctx, m, nil)
	}
}

// fallback is what follows when a message cannot reach its recipient (see
// serverchanges.go): the notices that tell someone instead, or retry when the
// notice is to be sent again now, elsewhere.
func (b *Bot) fallback(ctx context.Context, n storage.Notice, tour *storage.Tournament, p outgoing, sendErr error, now time.Time) (follow []storage.Notice, retry bool) {
	switch {
	case n.Tournament != 0:
		return b.tournamentUnreachable(ctx, n, tour, sendErr, now), false
	case n.Match == 0:
		return nil, false // a challenge's message: nobody else to tell
	case n.To == storage.AudienceFollower:
		// A follower who closed their DMs or left stops following: the
		// channel is not told about members who only watch.
		if err := b.store.Follow(ctx, n.Match, n.Follower, false); err != nil {
			b.log.Warn("forgetting an unreachable follower failed", "match", n.Match, "error", err)
		}
		return nil, false
	case p.to.user != "":
		return b.playerUnreachable(ctx, n, p.to.user, now), false
	}
	return b.publicUnreachable(ctx, n, p.to.channel, sendErr, now)
}

// lateBoardAfter is how late a board that starts a clock may arrive before
// its player is told, in a message of its own, when their time started.
const lateBoardAfter = time.Minute

// lateBoard is the notice that tells a player their board arrived late and
// when their time started, when n is such a board and arrived at arrived.
// The board itself was composed before it was sent, so the deadline it shows
// may be earlier than the one that holds. A set-up invite that arrived late
// is such a board too (its note's Reason is lateInvite): the set-up time
// starts when both invites have arrived. It owes the opponent a note as well
// (lateInviteOpponent): their invite, if it came earlier, showed the earliest
// the set-ups could be due, and the set-up time may have started only now.
// Which of these notes is said is decided when it is sent (lateInviteNote).
func lateBoard(n storage.Notice, arrived time.Time) []storage.Notice {
	if !n.StartsClock || n.Match == 0 || arrived.Sub(n.At) < lateBoardAfter {
		return nil
	}
	note := storage.Notice{Match: n.Match, Event: storage.EventLateBoard, To: n.To, Log: n.Log, Version: n.Version, At: arrived, Practice: n.Practice}
	if n.Event != storage.EventCreated || n.To > storage.AudienceBlue {
		return []storage.Notice{note}
	}
	other := note
	note.Reason = lateInvite
	other.To, other.Reason = storage.Audience(game.Side(n.To).Opponent()), lateInviteOpponent
	return []storage.Notice{note, other}
}

// lateBoardGivenUp is what lateBoard owes when n was given up at at rather
// than delivered, which starts a clock too: the note to the opponent of a
// late set-up invite, whose set-up time it may have started. Its own player
// is not reached by it.
func lateBoardGivenUp(n storage.Notice, at time.Time) []storage.Notice {
	var out []storage.Notice
	for _, f := range lateBoard(n, at) {
		if f.To != n.To {
			out = append(out, f)
		}
	}
	return out
}

// lateInvite is the Reason of the note that a set-up invite arrived late;
// lateInviteOpponent, of the note to the opponent of that invite's player.
const (
	lateInvite         = "setup-invite"
	lateInviteOpponent = "setup-invite-opponent"
)

// storeUnread marks a notice that could not be composed because the
// database did not answer (not because what it tells is gone or does not
// replay): it is tried again, not dropped.
type storeUnread struct{ err error }

func (e storeUnread) Error() string { return e.err.Error() }
func (e storeUnread) Unwrap() error { return e.err }

// unread wraps err, a failed read of the store, as storeUnread unless it
// says the record is gone or unreadable for good.
func unread(err error) error {
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNewerSchema) {
		return err
	}
	return storeUnread{err}
}

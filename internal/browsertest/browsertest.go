// Package browsertest drives a headless Chromium for the web board's tests:
// it starts one per test, waits for the page, and drags with the mouse.
//
// Without Chromium a test is skipped, unless STRATEGOBOT_TEST_BROWSER_REQUIRED
// is set (as CI sets it), where it fails.
package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Start starts a headless Chromium for t, closed when t ends; every step of
// the test must finish within limit.
func Start(t testing.TB, limit time.Duration) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("STRATEGOBOT_TEST_BROWSER_REQUIRED") != "" {
			t.Fatal("no Chromium found, and STRATEGOBOT_TEST_BROWSER_REQUIRED is set")
		}
		t.Skip("no Chromium found")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1000, 1400)) // the board and the tray at once, for a drag
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, limit)
	t.Cleanup(cancel3)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// Wait polls the page until js, an expression, is true; what names it in a
// failure, which also quotes the page's #status line.
func Wait(t testing.TB, ctx context.Context, what, js string) {
	t.Helper()
	wait(t, ctx, what, js, false)
}

// WaitAcrossLoad is Wait for a page that loads again meanwhile: until it
// has, js may find no page to run in, and that failure is waited out too.
func WaitAcrossLoad(t testing.TB, ctx context.Context, what, js string) {
	t.Helper()
	wait(t, ctx, what, js, true)
}

func wait(t testing.TB, ctx context.Context, what, js string, loading bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		if err != nil && !loading {
			t.Fatalf("%s: %v", what, err)
		}
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			status, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#status")))
			t.Fatalf("the page never showed %s (status %q, last error %v)", what, status, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Drag drags the element from onto the element to with the mouse: it
// presses on from's centre and moves to to's. A headless browser has no
// window system to carry the drag, so the browser hands it back (Input.
// setInterceptDrags) and Drag drops it where the mouse is: the page's own
// dragstart, dragover and drop handlers run as under a real mouse.
func Drag(ctx context.Context, from, to string) error {
	return DragAndLook(ctx, from, to, nil)
}

// DragAndLook is Drag that calls look, when it is not nil, while the piece
// is held over to, before it is dropped: what the page shows during a drag.
func DragAndLook(ctx context.Context, from, to string, look func() error) error {
	return drag(ctx, from, to, look, input.DispatchDragEventTypeDrop)
}

// DragAndCancel drags the element from over the element to, as Drag, then
// cancels the drag there (as Escape does under a real mouse) instead of
// dropping it: the page's dragend handler runs, its drop handler does not.
func DragAndCancel(ctx context.Context, from, to string) error {
	return drag(ctx, from, to, nil, input.DispatchDragEventTypeDragCancel)
}

// drag is DragAndLook ending in end: a drop or a cancel.
func drag(ctx context.Context, from, to string, look func() error, end input.DispatchDragEventType) error {
	x1, y1, err := centre(ctx, from)
	if err != nil {
		return err
	}
	x2, y2, err := centre(ctx, to)
	if err != nil {
		return err
	}
	dragged := make(chan *input.DragData, 1)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	if err := chromedp.Listen(lctx, func(ev any) {
		if e, ok := ev.(*input.EventDragIntercepted); ok {
			select {
			case dragged <- e.Data:
			default:
			}
		}
	}); err != nil {
		return fmt.Errorf("dragging %s: %w", from, err)
	}
	held := func(p *input.DispatchMouseEventParams) {
		p.Button, p.Buttons = input.MouseButtonLeft, 1
	}
	if err := chromedp.Do(ctx, command(input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x1, y1),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x1+(x2-x1)/3, y1+(y2-y1)/3, held),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x2, y2, held),
	); err != nil {
		return fmt.Errorf("dragging %s: %w", from, err)
	}
	select {
	case data := <-dragged:
		err = chromedp.Do(ctx,
			command(input.DispatchDragEvent, input.DispatchDragEventParams{Type: input.DispatchDragEventTypeDragEnter, X: x2, Y: y2, Data: data}),
			command(input.DispatchDragEvent, input.DispatchDragEventParams{Type: input.DispatchDragEventTypeDragOver, X: x2, Y: y2, Data: data}))
		if err == nil && look != nil {
			err = look()
		}
		if err == nil {
			err = chromedp.Do(ctx, command(input.DispatchDragEvent, input.DispatchDragEventParams{Type: end, X: x2, Y: y2, Data: data}))
		}
	case <-time.After(5 * time.Second):
		err = fmt.Errorf("pressing on %s and moving started no drag", from)
	}
	release := chromedp.Do(ctx,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x2, y2, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		command(input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false}))
	return errors.Join(err, release)
}

// command is the step that sends the protocol command cmd with params p.
func command[P any](cmd cdp.Command[P, cdp.Empty], p P) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cmd, p)
		return err
	})
}

// centre scrolls the element of selector into view and returns its centre
// in the viewport.
func centre(ctx context.Context, selector string) (x, y float64, err error) {
	js := fmt.Sprintf(`(function(){ const e = document.querySelector(%q); if (!e) { return null; }
	  e.scrollIntoView({block: "nearest"}); const r = e.getBoundingClientRect(); return {X: r.x + r.width/2, Y: r.y + r.height/2}; })()`, selector)
	found, err := chromedp.Run(ctx, chromedp.Evaluate[*struct{ X, Y float64 }](js))
	if err != nil {
		return 0, 0, fmt.Errorf("finding %s: %w", selector, err)
	}
	if found == nil {
		return 0, 0, fmt.Errorf("no %s on the page", selector)
	}
	return found.X, found.Y, nil
}

// Phone makes the page a phone's, as chromedp.Emulate would: 360 px wide
// and 640 high, three device pixels to one, a mobile browser with touch.
// Tap then taps on it.
func Phone() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(360, 640, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch)
}

// Tap taps the element of selector with one finger, in the middle: the
// touch events a phone sends, and the click its browser makes of them.
func Tap(ctx context.Context, selector string) error {
	x, y, err := centre(ctx, selector)
	if err != nil {
		return err
	}
	return chromedp.Do(ctx,
		command(input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}),
		command(input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}}))
}

// Accessible returns what a screen reader is told of the element of
// selector: its role and its accessible name, as the browser computes them.
func Accessible(ctx context.Context, selector string) (role, name string, err error) {
	var node *accessibility.Node
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		obj, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: fmt.Sprintf("document.querySelector(%q)", selector)})
		if err != nil {
			return err
		}
		if obj.Result == nil || obj.Result.ObjectID == "" {
			return fmt.Errorf("no %s on the page", selector)
		}
		no := false
		tree, err := cdp.Call(ctx, t, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{ObjectID: obj.Result.ObjectID, FetchRelatives: &no})
		if err != nil {
			return err
		}
		if len(tree.Nodes) == 0 {
			return fmt.Errorf("%s is nothing to a screen reader", selector)
		}
		node = tree.Nodes[0]
		return nil
	}))
	if err != nil {
		return "", "", err
	}
	text := func(v *accessibility.Value) string {
		var s string
		if v != nil && len(v.Value) > 0 {
			_ = json.Unmarshal([]byte(v.Value), &s)
		}
		return s
	}
	return text(node.Role), text(node.Name), nil
}

// Focused makes the page behave as the one in front, whose window has the
// focus (a headless browser's has none): an element focused then shows
// its :focus-visible ring as under a real keyboard.
func Focused() chromedp.Action[chromedp.Void] {
	return command(emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
}

// ColorScheme makes the page's prefers-color-scheme scheme, "light" or
// "dark", as a reader's system setting does; "" gives it back to the
// browser's own.
func ColorScheme(scheme string) chromedp.Action[chromedp.Void] {
	var features []*emulation.MediaFeature
	if scheme != "" {
		features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}
	}
	return command(emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features})
}

// NoCache makes every load of the page a first load, as on a browser that
// never saw it: the browser keeps nothing it fetches in its cache (the
// page's script, style and pictures, which it otherwise keeps).
func NoCache() chromedp.Action[chromedp.Void] {
	return command(network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
}

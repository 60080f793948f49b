package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// loadBot is the bot's process.
type loadBot struct {
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{}
	metrics string // host:port of /metrics
}

func startLoadBot(bin, cpus, dir string, srv *discordtest.Server, database string, profiling bool, env ...string) (*loadBot, error) {
	logPath := filepath.Join(dir, "bot.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(bin, "run")
	if cpus != "" {
		// taskset sets the CPUs and then becomes the bot: every thread of it
		// keeps them, and its Go runtime sizes itself to them.
		cmd = exec.Command("taskset", "-c", cpus, bin, "run")
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"DISCORD_TOKEN="+srv.Token(),
		"STRATEGOBOT_API_BASE_URL="+srv.APIBase(),
		"STRATEGOBOT_DATABASE="+database,
		"STRATEGOBOT_CONFIG=",
		"STRATEGOBOT_METRICS_ADDR=127.0.0.1:0",
		"STRATEGOBOT_LOG_LEVEL=info",
		"STRATEGOBOT_PROFILING="+strconv.FormatBool(profiling),
	)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the bot: %w", err)
	}
	p := &loadBot{cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

var metricsAddr = regexp.MustCompile(`serving /metrics and /healthz"? addr=(\S+)`)

// memory reads the bot's heap in use (from its /metrics) and its resident
// set (from /proc).
func (p *loadBot) memory() (heap, rss uint64, err error) {
	vm, err := p.status("VmRSS")
	if err != nil {
		return 0, 0, err
	}
	kb, _ := strconv.ParseUint(strings.TrimSuffix(vm, " kB"), 10, 64)
	rss = kb << 10
	if p.metrics == "" {
		if m := metricsAddr.FindStringSubmatch(p.tail()); m != nil {
			p.metrics = m[1]
		}
	}
	if p.metrics == "" {
		return 0, rss, errors.New("no metrics address in the bot's log yet")
	}
	heap, err = scrape(p.metrics, "go_memstats_heap_inuse_bytes")
	return heap, rss, err
}

// status returns a field of the bot's /proc status ("VmRSS", "Cpus_allowed_list").
func (p *loadBot) status(field string) (string, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("no %s in the bot's /proc status", field)
}

// cpuProfile writes the bot's CPU profile of the next d to path.
func (p *loadBot) cpuProfile(path string, d time.Duration) error {
	if p.metrics == "" {
		if _, _, err := p.memory(); p.metrics == "" {
			return err
		}
	}
	client := http.Client{Timeout: d + 30*time.Second}
	resp, err := client.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", p.metrics, max(1, int(d.Seconds()))))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /debug/pprof/profile: %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cpu is the CPU time the bot has used so far.
func (p *loadBot) cpu() time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, in parentheses: utime and stime are the 12th and 13th.
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseUint(f[11], 10, 64)
	k, _ := strconv.ParseUint(f[12], 10, 64)
	return time.Duration(u+k) * time.Second / 100 // USER_HZ is 100 on Linux
}

// ownCPU is the CPU time this process (the stand-in and the members) has used so far.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stop ends the bot with SIGTERM, as a service manager does.
func (p *loadBot) stop() error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-p.exited:
		if !p.cmd.ProcessState.Success() {
			return fmt.Errorf("the bot ended with %v", p.cmd.ProcessState)
		}
		return nil
	case <-time.After(30 * time.Second):
		p.kill()
		return errors.New("the bot did not stop within 30s of SIGTERM and was killed")
	}
}

func (p *loadBot) kill() {
	select {
	case <-p.exited:
	default:
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

func (p *loadBot) tail() string {
	b, _ := os.ReadFile(p.logPath)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// count counts the lines of the bot's log that contain level, and returns the first.
func (p *loadBot) count(level string) (int, string) {
	f, err := os.Open(p.logPath)
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	n, first := 0, ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), level) {
			if n++; n == 1 {
				first = sc.Text()
			}
		}
	}
	return n, first
}

// scrape reads one gauge from a Prometheus text page.
func scrape(addr, name string) (uint64, error) {
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + addr + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return uint64(v), err
		}
	}
	return 0, fmt.Errorf("no %s in the bot's /metrics", name)
}

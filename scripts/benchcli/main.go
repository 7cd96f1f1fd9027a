// Command benchcli times whole memdir processes for scripts/bench.
//
//	benchcli gen -n 10000 -dir DIR
//	    write a memory directory of N generated topics and its MEMORY.md
//	benchcli run -label L [-runs 20] [-rounds 3] [-target-ms 15] [-out FILE] -- memdir add ...
//	    run a command repeatedly, print its median and p90 wall time and its
//	    largest max RSS, and append them to FILE; "{i}" in an argument
//	    becomes a number that is new for every run; -before 'sh command'
//	    runs untimed before every run (an edit the timed command must see)
//	benchcli report [-ratio 'NUM/DEN<=3'] FILE
//	    print the figures of FILE with their targets, PASS or FAIL
//	benchcli embed [-dims 768] [-url-file FILE]
//	    serve Ollama's /api/embed on 127.0.0.1 with vectors made from each
//	    text's hash, until killed
//
// A run repeats the command -runs times per round, for -rounds rounds, and
// keeps the round with the lowest median: the machine is shared, and the
// best round is the closest to what the code itself costs.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchcli gen|run|report|embed ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = runGen(os.Args[2:])
	case "run":
		err = runRun(os.Args[2:])
	case "report":
		err = runReport(os.Args[2:])
	case "embed":
		err = runEmbed(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q: use gen, run, report or embed", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchcli:", err)
		os.Exit(1)
	}
}

// result is one measured figure.
type result struct {
	Label        string
	Median, P90  time.Duration
	MaxRSSKB     int64
	TargetMillis float64 // 0: no target
	// CPU is the median user+system time of the best round: on a shared
	// machine it moves less with the load than the wall time. It is
	// printed by run only.
	CPU time.Duration
}

func (r result) line() string {
	return fmt.Sprintf("%s\t%d\t%d\t%d\t%g\n", r.Label, r.Median, r.P90, r.MaxRSSKB, r.TargetMillis)
}

func parseResult(line string) (result, error) {
	f := strings.Split(line, "\t")
	if len(f) != 5 {
		return result{}, fmt.Errorf("bad result line %q", line)
	}
	var r result
	var nums [3]int64
	for i := range nums {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return result{}, fmt.Errorf("bad result line %q: %w", line, err)
		}
		nums[i] = n
	}
	t, err := strconv.ParseFloat(f[4], 64)
	if err != nil {
		return result{}, fmt.Errorf("bad result line %q: %w", line, err)
	}
	r.Label, r.Median, r.P90, r.MaxRSSKB, r.TargetMillis = f[0], time.Duration(nums[0]), time.Duration(nums[1]), nums[2], t
	return r, nil
}

type runOptions struct {
	label          string
	runs, rounds   int
	warmup         int
	target         float64
	dir, out, want string
	before         string
	argv           []string
}

func runRun(args []string) error {
	var o runOptions
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.StringVar(&o.label, "label", "", "name of the figure")
	fs.IntVar(&o.runs, "runs", 20, "runs per round")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds; the round with the lowest median counts")
	fs.IntVar(&o.warmup, "warmup", 2, "untimed runs first")
	fs.Float64Var(&o.target, "target-ms", 0, "the median must stay under this many milliseconds (0: no target)")
	fs.StringVar(&o.dir, "C", "", "working directory of the command")
	fs.StringVar(&o.out, "out", "", "append the result to this file")
	fs.StringVar(&o.want, "expect", "", "every run's stdout must contain this")
	fs.StringVar(&o.before, "before", "", "shell command run untimed before every run ({i} as in the command)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.argv = fs.Args()
	if len(o.argv) == 0 || o.label == "" || o.runs < 1 || o.rounds < 1 {
		return errors.New("run: need -label, positive -runs and -rounds, and a command after --")
	}
	r, err := measure(o)
	if err != nil {
		return err
	}
	fmt.Printf("%-40s median %8s  p90 %8s  cpu %8s  max RSS %6.1f MB\n", r.Label, ms(r.Median), ms(r.P90), ms(r.CPU), float64(r.MaxRSSKB)/1024)
	if o.out == "" {
		return nil
	}
	f, err := os.OpenFile(o.out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(r.line()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// measure runs the rounds and returns the best round's figures.
func measure(o runOptions) (result, error) {
	counter := 0
	next := func() (time.Duration, time.Duration, int64, error) {
		counter++
		return once(o, counter)
	}
	for range o.warmup {
		if _, _, _, err := next(); err != nil {
			return result{}, err
		}
	}
	best := result{Label: o.label, TargetMillis: o.target}
	for round := range o.rounds {
		times := make([]time.Duration, 0, o.runs)
		cpus := make([]time.Duration, 0, o.runs)
		var rss int64
		for range o.runs {
			d, cpu, kb, err := next()
			if err != nil {
				return result{}, err
			}
			times, cpus = append(times, d), append(cpus, cpu)
			rss = max(rss, kb)
		}
		slices.Sort(times)
		slices.Sort(cpus)
		med, p90 := percentile(times, 50), percentile(times, 90)
		if round == 0 || med < best.Median {
			best.Median, best.P90, best.CPU = med, p90, percentile(cpus, 50)
		}
		best.MaxRSSKB = max(best.MaxRSSKB, rss)
	}
	return best, nil
}

// once runs the command with "{i}" replaced by n and returns its wall time,
// its CPU time (user and system) and its max RSS in KiB.
func once(o runOptions, n int) (time.Duration, time.Duration, int64, error) {
	argv := make([]string, len(o.argv))
	for i, a := range o.argv {
		argv[i] = strings.ReplaceAll(a, "{i}", strconv.Itoa(n))
	}
	if o.before != "" {
		pre := exec.Command("sh", "-c", strings.ReplaceAll(o.before, "{i}", strconv.Itoa(n)))
		pre.Dir = o.dir
		if out, err := pre.CombinedOutput(); err != nil {
			return 0, 0, 0, fmt.Errorf("-before: %w\n%s", err, out)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = o.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %w\n%s", strings.Join(argv, " "), err, stderr.String())
	}
	if o.want != "" && !strings.Contains(stdout.String(), o.want) {
		return 0, 0, 0, fmt.Errorf("%s: stdout does not contain %q:\n%s", strings.Join(argv, " "), o.want, stdout.String())
	}
	var kb int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		kb = int64(ru.Maxrss) // KiB on Linux
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), kb, nil
}

// percentile of sorted times, nearest rank.
func percentile(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + " ms"
}

func runReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	var ratios multiFlag
	fs.Var(&ratios, "ratio", "NUM/DEN<=X: the median of NUM may be at most X times that of DEN; NUM/DEN alone prints the ratio (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("report: give the results file")
	}
	results, err := readResults(fs.Arg(0))
	if err != nil {
		return err
	}
	failed := false
	fmt.Printf("%-40s %10s %10s %9s %10s  %s\n", "figure", "median", "p90", "max RSS", "target", "result")
	for _, r := range results {
		target, verdict := "-", "-"
		if r.TargetMillis > 0 {
			target = "< " + strconv.FormatFloat(r.TargetMillis, 'f', -1, 64) + " ms"
			verdict = pass(r.Median < time.Duration(r.TargetMillis*float64(time.Millisecond)), &failed)
		}
		fmt.Printf("%-40s %10s %10s %6.1f MB %10s  %s\n", r.Label, ms(r.Median), ms(r.P90), float64(r.MaxRSSKB)/1024, target, verdict)
	}
	for _, spec := range ratios {
		line, ok, err := checkRatio(spec, results)
		if err != nil {
			return err
		}
		verdict := "-"
		if line[2] != "-" {
			verdict = pass(ok, &failed)
		}
		fmt.Printf("%-40s %10s %10s %9s %10s  %s\n", line[0], line[1], "", "", line[2], verdict)
	}
	if failed {
		return errors.New("some figures missed their targets")
	}
	return nil
}

// checkRatio evaluates "NUM/DEN<=X" over the results; a bare "NUM/DEN"
// has no target (its third string is "-").
func checkRatio(spec string, results []result) ([3]string, bool, error) {
	pair, limit, ok := strings.Cut(spec, "<=")
	num, den, ok2 := strings.Cut(pair, "/")
	x, err := strconv.ParseFloat(limit, 64)
	if !ok {
		x, err = math.Inf(1), nil
	}
	if !ok2 || err != nil {
		return [3]string{}, false, fmt.Errorf("bad -ratio %q: want NUM/DEN<=X or NUM/DEN", spec)
	}
	find := func(label string) (result, error) {
		for _, r := range results {
			if r.Label == label {
				return r, nil
			}
		}
		return result{}, fmt.Errorf("-ratio %q: no figure %q", spec, label)
	}
	a, err := find(num)
	if err != nil {
		return [3]string{}, false, err
	}
	b, err := find(den)
	if err != nil {
		return [3]string{}, false, err
	}
	got := float64(a.Median) / float64(b.Median)
	target := "-"
	if ok {
		target = "<= " + limit + "x"
	}
	return [3]string{num + " ÷ " + den, strconv.FormatFloat(got, 'f', 2, 64) + "x", target}, got <= x, nil
}

func pass(ok bool, failed *bool) string {
	if ok {
		return "PASS"
	}
	*failed = true
	return "FAIL"
}

func readResults(path string) ([]result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []result
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		r, err := parseResult(sc.Text())
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

package mongocrypt

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuWatch measures how much CPU the rest of the machine used during a
// benchmark cell: busy time of all CPUs (/proc/stat, including time stolen
// by the hypervisor) minus this process's own CPU time (getrusage), over the
// wall time. The machine is shared; a cell with other work in it is flagged
// in the table instead of being trusted silently.
type cpuWatch struct {
	busy, own float64 // seconds
	start     time.Time
	ok        bool
}

// USER_HZ, the unit of /proc/stat, is 100 on every Linux ABI Go supports.
const userHZ = 100

func startCPUWatch() cpuWatch {
	busy, ok1 := machineBusy()
	own, ok2 := ownCPU()
	return cpuWatch{busy: busy, own: own, start: time.Now(), ok: ok1 && ok2}
}

// others returns the average number of CPUs other processes kept busy
// since the start, or false if it could not be measured.
func (w cpuWatch) others() (float64, bool) {
	busy, ok1 := machineBusy()
	own, ok2 := ownCPU()
	wall := time.Since(w.start).Seconds()
	if !w.ok || !ok1 || !ok2 || wall <= 0 {
		return 0, false
	}
	return max(0, (busy-w.busy)-(own-w.own)) / wall, true
}

func machineBusy() (float64, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "cpu" {
			continue
		}
		// user nice system idle iowait irq softirq steal
		var busy float64
		for _, i := range []int{1, 2, 3, 6, 7, 8} {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return 0, false
			}
			busy += v
		}
		return busy / userHZ, true
	}
	return 0, false
}

func ownCPU() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(ru.Utime) + sec(ru.Stime), true
}

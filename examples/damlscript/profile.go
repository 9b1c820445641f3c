package main

import (
	"errors"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts the CPU profile of --cpuprofile, if asked; the
// function it returns stops it and writes the allocation profile of
// --memprofile, if asked.
func startProfiles(c config) (stop func() error, err error) {
	var cpu *os.File
	if c.cpuProfile != "" {
		if cpu, err = os.Create(c.cpuProfile); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, err
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			errs = append(errs, cpu.Close())
		}
		if c.memProfile != "" {
			f, err := os.Create(c.memProfile)
			if err != nil {
				return errors.Join(append(errs, err)...)
			}
			runtime.GC() // the live heap as of the end of the run
			errs = append(errs, pprof.Lookup("allocs").WriteTo(f, 0), f.Close())
		}
		return errors.Join(errs...)
	}, nil
}

// Command build writes privamp's planning page into one folder that any
// static file server can serve: the page (web/static), privamp.wasm (package
// web/wasm compiled with GOOS=js GOARCH=wasm) and the wasm_exec.js of the Go
// toolchain that compiles it. `make web` runs it for web/dist; the Chromium
// test (web/e2e) runs it for its own folder.
//
//	go run ./web/build [-o DIR]
//
// It needs only the Go toolchain, and must be run from the module's root.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("o", filepath.Join("web", "dist"), "folder to write the page into")
	flag.Parse()
	if err := build(*out); err != nil {
		fmt.Fprintln(os.Stderr, "web/build:", err)
		os.Exit(1)
	}
}

func build(out string) error {
	if _, err := os.Stat(filepath.Join("web", "static", "index.html")); err != nil {
		return fmt.Errorf("run from the module's root: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(out, "privamp.wasm"), "./web/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("compiling web/wasm: %w", err)
	}
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	// Go ≥ 1.24 ships wasm_exec.js in lib/wasm, earlier releases in misc/wasm.
	var wasmExec string
	for _, dir := range []string{"lib", "misc"} {
		p := filepath.Join(strings.TrimSpace(string(root)), dir, "wasm", "wasm_exec.js")
		if _, err := os.Stat(p); err == nil {
			wasmExec = p
			break
		}
	}
	if wasmExec == "" {
		return fmt.Errorf("no wasm_exec.js in %s/lib/wasm or misc/wasm", strings.TrimSpace(string(root)))
	}
	if err := copyFile(wasmExec, filepath.Join(out, "wasm_exec.js")); err != nil {
		return err
	}
	static, err := os.ReadDir(filepath.Join("web", "static"))
	if err != nil {
		return err
	}
	for _, e := range static {
		if e.Type().IsRegular() {
			if err := copyFile(filepath.Join("web", "static", e.Name()), filepath.Join(out, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

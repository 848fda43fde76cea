// tlog-check verifies an athar log with Go's standard transparency-log packages (golang.org/x/mod/sumdb/note and
// golang.org/x/mod/sumdb/tlog), trusting nothing but the log's verifier key:
//
//	go run . -log https://archive.example.org/log -key 'archive.example.org/log+1a2b3c4d+AX…' [-index N] [-all] [-old M]
//
// It fetches the checkpoint and checks its signature, reads the tiles it needs (each authenticated against the
// signed root by tlog.TileHashReader), proves entries from the entry bundles and, with -old, proves the current
// tree consistent with an older size. See docs/ledger.md.
package main

import (
	"encoding/binary"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fetch(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// tiles reads c2sp.org/tlog-tiles paths: the sumdb path tile/8/<L>/<N>[.p/<W>] without its height.
type tiles struct{ base string }

func (t tiles) Height() int { return 8 }

func (t tiles) ReadTiles(ts []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(ts))
	for i, tile := range ts {
		data, err := fetch(t.base + "/tile/" + strings.TrimPrefix(tile.Path(), "tile/8/"))
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (t tiles) SaveTiles([]tlog.Tile, [][]byte) {}

func entry(base string, index int64, size int64) ([]byte, error) {
	n := index / 256
	w := size - n*256
	if w > 256 {
		w = 256
	}
	path := strings.TrimPrefix(tlog.Tile{H: 8, L: 0, N: n, W: int(w)}.Path(), "tile/8/0/")
	bundle, err := fetch(base + "/tile/entries/" + path)
	if err != nil {
		return nil, err
	}
	for i := int64(0); len(bundle) >= 2; i++ {
		l := int(binary.BigEndian.Uint16(bundle))
		if len(bundle) < 2+l {
			return nil, fmt.Errorf("entry bundle %d is cut short", n)
		}
		if n*256+i == index {
			return bundle[2 : 2+l], nil
		}
		bundle = bundle[2+l:]
	}
	return nil, fmt.Errorf("entry %d is not in its bundle", index)
}

func main() {
	base := flag.String("log", "http://127.0.0.1:8080/log", "the log's URL prefix")
	vkey := flag.String("key", "", "the log's verifier key (athar ledger key)")
	index := flag.Int64("index", -1, "prove this entry")
	all := flag.Bool("all", false, "prove every entry")
	old := flag.Int64("old", -1, "prove the tree consistent with this older size")
	flag.Parse()

	verifier, err := note.NewVerifier(*vkey)
	check(err)
	raw, err := fetch(*base + "/checkpoint")
	check(err)
	n, err := note.Open(raw, note.VerifierList(verifier))
	check(err)
	lines := strings.SplitN(n.Text, "\n", 4)
	if len(lines) < 4 || lines[0] != verifier.Name() {
		check(fmt.Errorf("checkpoint origin %q is not %q", lines[0], verifier.Name()))
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	check(err)
	rootBytes, err := base64.StdEncoding.DecodeString(lines[2])
	check(err)
	var root tlog.Hash
	copy(root[:], rootBytes)
	fmt.Printf("checkpoint: %s, %d entries, root %s: signature verified\n", lines[0], size, root)

	tree := tlog.Tree{N: size, Hash: root}
	hashes := tlog.TileHashReader(tree, tiles{*base})
	th, err := tlog.TreeHash(size, hashes)
	check(err)
	if th != root {
		check(fmt.Errorf("tiles give root %s", th))
	}
	fmt.Println("tiles: authenticated against the signed root")

	prove := func(i int64) {
		data, err := entry(*base, i, size)
		check(err)
		proof, err := tlog.ProveRecord(size, i, hashes)
		check(err)
		check(tlog.CheckRecord(proof, size, root, i, tlog.RecordHash(data)))
	}
	if *index >= 0 {
		prove(*index)
		data, _ := entry(*base, *index, size)
		fmt.Printf("entry %d: included: %s\n", *index, data)
	}
	if *all {
		for i := int64(0); i < size; i++ {
			prove(i)
		}
		fmt.Printf("entries 0…%d: every inclusion proof verified\n", size-1)
	}
	if *old >= 1 {
		oldHash, err := tlog.TreeHash(*old, hashes)
		check(err)
		proof, err := tlog.ProveTree(size, *old, hashes)
		check(err)
		check(tlog.CheckTree(proof, size, root, *old, oldHash))
		fmt.Printf("tree %d (root %s) is consistent with tree %d\n", *old, oldHash, size)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "tlog-check:", err)
		os.Exit(1)
	}
}

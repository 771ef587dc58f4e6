package host

import (
	"errors"
	"io/fs"
	"os"
)

// The host's files are its owner's alone: the data directory is 0700, and
// the token and the journal (journal.db and SQLite's -wal and -shm beside
// it) are 0600, whatever the umask and whatever an older version left.
const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// tightenDir makes dir 0700 when group or others have any access to it,
// and returns the mode it had then (0 when nothing changed).
func tightenDir(dir string) (fs.FileMode, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return 0, err
	}
	if fi.Mode().Perm()&0o077 == 0 {
		return 0, nil
	}
	if err := os.Chmod(dir, dirMode); err != nil {
		return 0, err
	}
	return fi.Mode().Perm(), nil
}

// tightenFiles makes each existing file 0600 when group or others have
// any access to it. Missing files are skipped.
func tightenFiles(paths ...string) error {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, fileMode); err != nil {
				return err
			}
		}
	}
	return nil
}

// createPrivate creates path empty with mode 0600 unless it exists. SQLite
// gives the -wal and -shm files it creates the database file's mode, so
// creating the database 0600 keeps them 0600 too.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := f.Chmod(fileMode); err != nil { // the umask only ever takes bits away, but be explicit
		f.Close()
		return err
	}
	return f.Close()
}

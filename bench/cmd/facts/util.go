package main

import (
	"errors"

	"github.com/neardup/neardup/io/dump"
)

func asPageError(err error, pe **dump.PageError) bool { return errors.As(err, pe) }

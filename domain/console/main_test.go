package console_test

import (
	"testing"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

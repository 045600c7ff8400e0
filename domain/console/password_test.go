package console_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/console"
)

func TestPasswordHashVerifies(t *testing.T) {
	hash, err := console.HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %s is not argon2id with the chosen cost", hash)
	}
	if ok, err := console.VerifyPassword(hash, "correct horse battery"); !ok || err != nil {
		t.Errorf("the right password: %v %v", ok, err)
	}
	if ok, err := console.VerifyPassword(hash, "correct horse batterz"); ok || err != nil {
		t.Errorf("a wrong password: %v %v", ok, err)
	}
	again, _ := console.HashPassword("correct horse battery")
	if again == hash {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	if _, err := console.HashPassword("short"); !errors.Is(err, console.ErrPasswordTooShort) {
		t.Errorf("a short password: %v", err)
	}
	if _, err := console.VerifyPassword("$2a$10$bcrypt", "x"); err == nil {
		t.Error("a hash of another kind verified without an error")
	}
	if p := console.GeneratePassword(); len(p) < console.MinPasswordLength {
		t.Errorf("generated password %q is too short", p)
	}
}

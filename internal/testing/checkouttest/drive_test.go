package checkouttest

import (
	"fmt"
	"strings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A customer works the page with the mouse (clicks, typing into the field
// clicked) or with the keyboard alone (Tab to move, Space and Enter to
// press, arrow keys in radio groups and lists, typing into the focused
// field). The flows run once each way.

// idOfLabel is the id of the control whose label starts with text.
func (b *browser) idOfLabel(text string) string {
	b.T.Helper()
	return b.Poll(fmt.Sprintf("a control labelled %q", text), func() (string, bool) {
		id := eval[string](b, fmt.Sprintf(`(() => { const l = [...document.querySelectorAll('main label')].find((l) => l.textContent.trim().startsWith(%q)); return l ? l.htmlFor : ''; })()`, text))
		return id, id != ""
	})
}

// tabTo presses Tab until the focus is on sel, as a keyboard user moves.
func (b *browser) tabTo(sel string) {
	b.T.Helper()
	for range 150 {
		if eval[bool](b, fmt.Sprintf(`document.activeElement && document.activeElement.matches(%q)`, sel)) {
			return
		}
		b.Do(chromedp.KeyEvent(kb.Tab))
	}
	b.Screenshot("tab")
	b.T.Fatalf("Tab never reached %s", sel)
}

// press activates sel: a click, or Tab to it and Enter (Space for check
// boxes and radio buttons).
func (b *browser) press(sel string, keyboard bool) {
	b.T.Helper()
	if !keyboard {
		b.Do(chromedp.Click(chromedp.CSS(sel)))
		return
	}
	b.tabTo(sel)
	key := kb.Enter
	if eval[bool](b, `['checkbox', 'radio'].includes(document.activeElement.type)`) {
		key = " "
	}
	b.Do(chromedp.KeyEvent(key))
}

// typeInto replaces the text of the field sel, reached with Tab or a
// click: select all, delete, type.
func (b *browser) typeInto(sel, text string, keyboard bool) {
	b.T.Helper()
	if keyboard {
		b.tabTo(sel)
	} else {
		b.Do(chromedp.Click(chromedp.CSS(sel)))
	}
	b.Do(chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Delete))
	if text != "" {
		b.Do(chromedp.KeyEvent(text))
	}
	if got := eval[string](b, fmt.Sprintf(`document.querySelector(%q).value`, sel)); got != text {
		b.T.Fatalf("%s holds %q after typing %q", sel, got, text)
	}
}

// selectOption picks value in the list sel: with the keyboard, arrow keys
// on the focused list until it shows value.
func (b *browser) selectOption(sel, value string, keyboard bool) {
	b.T.Helper()
	current := func() string { return eval[string](b, fmt.Sprintf(`document.querySelector(%q).value`, sel)) }
	if !keyboard {
		b.Do(chromedp.Click(chromedp.CSS(sel)), chromedp.SetValue(chromedp.CSS(sel), value))
		eval[bool](b, fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new Event('change', { bubbles: true }))`, sel))
	} else {
		b.tabTo(sel)
		for _, key := range []string{kb.Home, kb.ArrowDown} {
			for range 300 {
				if current() == value {
					break
				}
				b.Do(chromedp.KeyEvent(key))
				if key == kb.Home {
					break
				}
			}
		}
	}
	if got := current(); got != value {
		b.T.Fatalf("%s shows %q, want %q", sel, got, value)
	}
}

// enter gives the control sel a value: typed into a field, picked in a list.
func (b *browser) enter(sel, value string, keyboard bool) {
	b.T.Helper()
	if eval[string](b, fmt.Sprintf(`document.querySelector(%q).tagName`, sel)) == "SELECT" {
		b.selectOption(sel, value, keyboard)
		return
	}
	b.typeInto(sel, value, keyboard)
}

// chooseRadio checks the radio button labelled text: with the keyboard,
// Tab into its group and arrow keys until it is checked.
func (b *browser) chooseRadio(label string, keyboard bool) {
	b.T.Helper()
	id := b.idOfLabel(label)
	sel := "#" + id
	if !keyboard {
		b.Do(chromedp.Click(chromedp.CSS(sel)))
	} else {
		group := eval[string](b, fmt.Sprintf(`document.getElementById(%q).name`, id))
		b.tabTo(fmt.Sprintf(`input[name=%q]:checked`, group))
		for range 10 {
			if eval[bool](b, fmt.Sprintf(`document.getElementById(%q).checked`, id)) {
				break
			}
			b.Do(chromedp.KeyEvent(kb.ArrowDown))
		}
	}
	if !eval[bool](b, fmt.Sprintf(`document.getElementById(%q).checked`, id)) {
		b.T.Fatalf("the radio button %q is not checked", label)
	}
}

// field is the selector of the control of an API field path.
func field(path string) string { return fmt.Sprintf(`[name=%q]`, path) }

// errorOf is the text shown next to the control sel as its error; the
// control must be marked invalid and described by it.
func (b *browser) errorOf(sel string) string {
	b.T.Helper()
	return eval[string](b, fmt.Sprintf(`(() => {
		const c = document.querySelector(%q);
		const ids = (c.getAttribute('aria-describedby') || '').split(' ');
		const e = document.getElementById(c.dataset.errorId);
		return c.getAttribute('aria-invalid') === 'true' && e && !e.hidden && ids.includes(e.id) ? e.textContent : '';
	})()`, sel))
}

// monthlyTotal is the summary's monthly total as shown.
func (b *browser) monthlyTotal() string {
	b.T.Helper()
	return strings.TrimSpace(eval[string](b, `(() => { const s = document.querySelector('.summary:not([aria-busy]) dd.total'); return s ? s.textContent : ''; })()`))
}

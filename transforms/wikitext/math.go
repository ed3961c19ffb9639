package wikitext

import "strings"

// The text of <math> formulas.
//
// A formula in running text is part of the sentence ("the product of s, i
// and n"); dropping it leaves "the product of , and". The cleaner keeps a
// formula when it can write it as plain text: TeX with no markup but
// spacing, \text-like boxes and the commands of mathTeX below. Anything
// else (fractions, roots, sub- and superscripts, matrices) is dropped as
// before, since a flattened rendering would not say what the formula says.

// mathTeX maps TeX commands to the characters they show.
var mathTeX = map[string]string{
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
	"eta": "η", "theta": "θ", "vartheta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
	"xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ",
	"chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
	"Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
	"times": "×", "cdot": "·", "pm": "±", "mp": "∓", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
	"ne": "≠", "neq": "≠", "approx": "≈", "equiv": "≡", "sim": "∼", "infty": "∞", "to": "→",
	"rightarrow": "→", "leftarrow": "←", "in": "∈", "subset": "⊂", "cup": "∪", "cap": "∩", "circ": "∘",
	"deg": "°", "ldots": "…", "dots": "…", "cdots": "⋯", "sin": "sin", "cos": "cos", "tan": "tan",
	"log": "log", "ln": "ln", "exp": "exp", "max": "max", "min": "min", "lim": "lim", "partial": "∂",
	"nabla": "∇", "forall": "∀", "exists": "∃", "neg": "¬", "wedge": "∧", "vee": "∨", "%": "%",
}

// mathBoxes are the commands whose braced argument is shown as it is.
var mathBoxes = map[string]bool{"text": true, "mathrm": true, "mbox": true, "mathit": true, "mathbf": true, "textrm": true, "operatorname": true, "displaystyle": true}

// appendMath appends the plain text of the TeX formula tex to dst, or
// nothing if it has markup that plain text cannot show.
func appendMath(dst []byte, tex string) []byte {
	mark := len(dst)
	tex = strings.TrimSpace(tex)
	for i := 0; i < len(tex); {
		c := tex[i]
		switch c {
		case '^', '_', '&':
			return dst[:mark]
		case '{', '}':
			i++
		case '\\':
			j := i + 1
			for j < len(tex) && isLetterASCII(tex[j]) {
				j++
			}
			if j == i+1 && j < len(tex) {
				j++ // a one-character command: \, \; \! \{ \%
			}
			name := tex[i+1 : j]
			switch {
			case name == "," || name == ";" || name == "!" || name == " " || name == ":" || name == "quad" || name == "qquad":
				dst = append(dst, ' ')
			case mathBoxes[name]:
			case mathTeX[name] != "":
				dst = append(dst, mathTeX[name]...)
			default:
				return dst[:mark]
			}
			i = j
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

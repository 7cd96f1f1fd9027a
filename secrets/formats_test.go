package secrets

import (
	"encoding/base64"
	"strings"
	"testing"
)

const (
	lettersOnly = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	digits      = "0123456789"
	urlSafe     = alnum + "-_"
)

// credential is one credential format that must never enter memory.
type credential struct {
	name, text string
	// slipped marks the 13 formats issue 12 found accepted by add.
	slipped bool
}

// credentials returns at least one text per credential format memdir must
// refuse: the 13 formats of issue 12 that slipped through, then the others.
// Values are generated, fake and format-valid.
func credentials() []credential {
	k := testKeys()
	ghp := "ghp_" + rnd(36, 200)
	return []credential{
		// The 13 that slipped through.
		{"bare aws secret", "secret for the deploy user: " + gen(b64, 40, 201), true},
		{"private key on one line", pemOf("RSA PRIVATE KEY", k.rsaPKCS1, " "), true},
		{"private key without armour", bodyOf(k.rsaPKCS1, "\n"), true},
		{"base64-wrapped token", "ci token (base64): " + b64std(ghp), true},
		{"pypi token", "pypi-AgEIcHlwaS5vcmc" + gen(urlSafe, 80, 202), true},
		{"hugging face token", "HF token hf_" + gen(lettersOnly, 34, 203), true},
		{"discord webhook", "https://discord.com/api/webhooks/" + gen(digits, 18, 204) + "/" + gen(urlSafe, 68, 205), true},
		{"password colon", "password: correcthorsebattery", true},
		{"password equals", "password=letmein", true},
		{"db_pass", "db_pass=Sup3rS3cret!", true},
		{"PGPASSWORD", "PGPASSWORD=Sup3rS3cret psql -h db", true},
		{"the password is", "the password is Tr0ub4dor&3 for the staging box", true},
		{"zero-width split token", "token " + ghp[:20] + "\u200b" + ghp[20:], true},
		// The others.
		{"aws access key id", "AKIA" + strings.ToUpper(hexs(16, 206)), false},
		{"aws secret assignment", "aws_secret_access_key = " + gen(b64, 40, 207), false},
		{"github classic", ghp, false},
		{"github oauth", "gho_" + rnd(36, 208), false},
		{"github fine-grained", "github_pat_" + rnd(22, 209) + "_" + rnd(59, 210), false},
		{"gitlab pat", "glpat-" + rnd(20, 211), false},
		{"slack bot token", "xoxb-123456789012-1234567890123-" + rnd(24, 212), false},
		{"slack webhook", "https://hooks.slack.com/services/T" + rnd(8, 213) + "/B" + rnd(8, 214) + "/" + rnd(24, 215), false},
		{"stripe live key", "sk_live_" + rnd(24, 216), false},
		{"openai project key", "sk-proj-" + rnd(48, 217) + "_" + rnd(20, 218), false},
		{"anthropic key", "sk-ant-api03-" + rnd(93, 219) + "AA", false},
		{"google api key", "AIza" + rnd(35, 220), false},
		{"jwt", jwtToken(), false},
		{"npm token", "npm_" + rnd(36, 221), false},
		{"sendgrid", "SG." + rnd(22, 222) + "." + rnd(43, 223), false},
		{"azure storage key", "AccountKey=" + gen(b64, 86, 224) + "==", false},
		{"basic auth header", "Authorization: Basic " + b64std("deploy:Tr0ub4dor&3"), false},
		{"bearer token", "Authorization: Bearer " + rnd(40, 225), false},
		{"pem rsa", pemOf("RSA PRIVATE KEY", k.rsaPKCS1, "\n"), false},
		{"pem pkcs8", pemOf("PRIVATE KEY", k.rsaPKCS8, "\n"), false},
		{"pem ec", pemOf("EC PRIVATE KEY", k.ecSEC1, "\r\n"), false},
		{"pem openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(opensshBody(), "\n") + "\n-----END OPENSSH PRIVATE KEY-----", false},
		{"pem one line without blanks", strings.ReplaceAll(pemOf("PRIVATE KEY", k.ed25519PKCS8, "\n"), "\n", ""), false},
		{"pem in json", `{"private_key": "` + pemOf("PRIVATE KEY", k.rsaPKCS8, `\n`) + `"}`, false},
		{"ec key without armour", bodyOf(k.ecSEC1, "\n"), false},
		{"ed25519 key without armour", "key: " + bodyOf(k.ed25519PKCS8, ""), false},
		{"openssh key without armour", opensshBody(), false},
		{"postgres url", "postgres://app:s3cr3tPw@db.internal:5432/app", false},
		{"mongodb srv url", "mongodb+srv://svc:" + rnd(16, 226) + "@cluster0.mongodb.net/prod", false},
		{"redis url without user", "redis://:" + rnd(16, 227) + "@cache:6379/0", false},
		{"jdbc url", "jdbc:mysql://db:3306/app?user=app&password=S3cret99", false},
		{"ado.net string", "Server=db;Database=app;User Id=sa;Password=S3cret99!;", false},
		{"MYSQL_PWD", "MYSQL_PWD=S3cret99 mysql -u root", false},
		{"age key", "AGE-SECRET-KEY-1" + gen("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, 228), false},
		{"vault token", "vault login hvs." + gen(urlSafe, 95, 229), false},
		{"digitalocean token", "dop_v1_" + hexs(64, 230), false},
		{"shopify token", "shpat_" + hexs(32, 231), false},
		{"databricks token", "dapi" + hexs(32, 232), false},
		{"gcp service account", `{"type": "service_account", "private_key_id": "` + hexs(40, 233) + `"}`, false},
		{"base64 aws key id", b64std("aws_access_key_id = AKIA" + strings.ToUpper(hexs(16, 234))), false},
		{"soft hyphen split key id", "AKIA" + strings.ToUpper(hexs(8, 235)) + "\u00ad" + strings.ToUpper(hexs(8, 236)), false},
		{"word joiner split password", "pass\u2060word=hunter22", false},
		{"quoted password in prose", "The passphrase is 'correct horse'", false},
		{"password holding the word", "ADMIN_PASSWORD=Password1", false},
	}
}

func TestCredentialsRefused(t *testing.T) {
	cs := credentials()
	slipped := 0
	for _, c := range cs {
		if c.slipped {
			slipped++
		}
		t.Run(c.name, func(t *testing.T) {
			if got := Scan(c.text); len(got) == 0 {
				t.Errorf("Scan(%q) found nothing", c.text)
			}
		})
	}
	if len(cs) < 43 || slipped != 13 {
		t.Errorf("%d formats, %d of them the ones that slipped; want at least 43 and 13", len(cs), slipped)
	}
}

// innocuous returns texts that must pass: false positives would keep
// people from recording ordinary memory.
func innocuous() []string {
	k := testKeys()
	return []string{
		"Fixed in 60653dbeda048f7834049d0b61cf5054a2c06b03, reverted in 5d6b98a.",
		"commit " + hexs(40, 300) + "\nAuthor: Ada <ada@example.org>",
		"request id 3f2b8c1e-9d4a-4e7b-8c2f-1a5b6c7d8e9f failed twice",
		"greeting in base64: " + b64std("hello world, this is fine!!!"),
		"the fixture is " + b64std("The quick brown fox jumps over the lazy dog, and then it naps in the sun for a while."),
		"the password policy requires 12 characters",
		"The password is stored in 1Password; the token rotates weekly.",
		"the password is incorrect when caps lock is on",
		"the password was rotated yesterday",
		"Password: must be at least 12 characters",
		"password: disabled",
		"password = cfg.Password",
		"password = getpass.getpass()",
		"password = request",
		"Passphrase: passphrase,",
		`X_PATH_MASTERPASSWD = "/etc/master.passwd"`,
		`encodeUserPassword: "encodeUserPassword",`,
		"export PGPASSWORD=$(cat ~/.pgpass)",
		"tests pass: 12/14 after the fix",
		"def check_password(pw: str) -> bool:\n    return bcrypt.checkpw(pw, stored_hash)",
		"token := os.Getenv(\"GITHUB_TOKEN\")\nif token == \"\" {\n\treturn errNoToken\n}",
		"curl -u $USER:$TOKEN https://api.internal/v1/status",
		pemOf("CERTIFICATE", k.cert, "\n"),
		pemOf("CERTIFICATE", k.cert, " "),
		bodyOf(k.cert, "\n"),
		pemOf("PUBLIC KEY", k.rsaPublic, "\n"),
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + gen(b64, 43, 301) + " ada@laptop",
		"/home/user/src/github.com/memdir/memdir/secrets/pattern.go",
		"see src/components/Header/Navigation2Menu/ab for the menu",
		`C:\Users\Ada\AppData\Roaming\memdir\config.yaml`,
		"https://github.com/memdir/memdir/pull/123#issuecomment-456",
		"postgres://localhost:5432/app?sslmode=disable",
		"https://example.com/search?q=memdir&page=2",
		"cvs -d cvs://:pserver:anoncvs@sources.redhat.com:/cvs/src co binutils",
		"github.com/sergi/go-diff v1.3.2-0.20230802210424-5b0b94c5c0d3 h1:" + gen(b64, 43, 302) + "=",
		`"integrity": "sha512-` + gen(b64, 86, 303) + `=="`,
		"image sha256:" + hexs(64, 304),
		"AbstractSingletonProxyFactoryBeanImpl and internationalization",
		"getUserAccountSettings2FactorAuthConfig1 returns the settings",
		"md5 0123456789abcdef0123456789abcdef of the archive",
		"the model runs hf_hub_download(repo_id=\"org/model\") on start",
		"publish with the pypi-publish action",
		"👩\u200d💻 Ada owns the scanner; ask her before changing the rules",
		"- [Testing policy](feedback_testing_policy.md) — Integration tests hit a real database",
		"Release at 2026-11-22T10:04:05Z; freeze from 2026-11-20.",
		"data:image/png;base64," + base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), gen(alnum, 60, 305)...)),
		"kubectl get secret db-credentials -o yaml | less",
		"API keys live in the vault; ask ops for access",
		"Run `memdir add -- -----BEGIN CERTIFICATE-----` to keep a certificate.",
	}
}

func TestInnocuousTextsPass(t *testing.T) {
	texts := innocuous()
	if len(texts) < 30 {
		t.Errorf("%d innocuous texts, want at least 30", len(texts))
	}
	for _, text := range texts {
		t.Run(text[:min(len(text), 40)], func(t *testing.T) {
			if got := Scan(text); len(got) != 0 {
				t.Errorf("Scan(%q) = %+v, want nothing", text, got)
			}
		})
	}
}

# Writes n distinct project facts into 28 daily logs under mem/logs
# (awk -v mem=DIR -v n=N -f this): each entry names a component of the
# project and says something in seven words of its own, beside the
# project's everyday words ("memdir", the component, "part").
function u(k,   a, b, c) {
  a = syl[k % 100 + 1]; k = int(k / 100)
  b = syl[k % 100 + 1]; k = int(k / 100)
  c = syl[k % 100 + 1]
  return a b c "x"
}
BEGIN {
  split("b c d f g h j k l m n p r s t v w z q y", cons, " ")
  split("a e i o u", vow, " ")
  ns = 0
  for (i = 1; i <= 20; i++) for (j = 1; j <= 5; j++) syl[++ns] = cons[i] vow[j]
  split("project reference feedback user", types, " ")
  split("dream sync index search viewer daemon hook store logs topics", comp, " ")
  # u(k) is the k-th made-up word: three syllables of 100 and an x,
  # distinct for k below a million.
  per = int(n / 28)
  k = 0
  for (d = 0; d < 28; d++) {
    t = mktime("2026 10 01 12 00 00") + d * 86400
    date = strftime("%Y-%m-%d", t, 1); y = strftime("%Y", t, 1); m = strftime("%m", t, 1)
    dir = mem "/logs/" y "/" m; system("mkdir -p " dir)
    f = dir "/" date ".md"
    printf "# %s\n\n", date > f
    for (i = 0; i < per; i++) {
      c = comp[k % 10 + 1]; c2 = comp[int(k / 10) % 10 + 1]
      hh = sprintf("%02d:%02d", 8 + int(i * 10 / per), int(i * 600 / per) % 60)
      printf "- %s [%s] %s %s %s: %s %s %s in the memdir %s part, about %s and %s.\n", hh, types[k % 4 + 1], c, u(8*k), u(8*k+1), u(8*k+2), u(8*k+3), u(8*k+4), c, u(8*k+5), u(8*k+6) >> f
      k++
    }
    close(f)
  }
}

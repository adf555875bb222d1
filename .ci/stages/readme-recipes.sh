# Every README recipe as written, each in a fresh clone with ../shared beside it.
source "$(dirname "$0")/../lib.sh"
have_shared corpora || skip "no $SHARED: the recipes read ../shared"
.ci/readme-recipes --bin .build/release

"""What a choice offers: the compiler tags every ask with one of these kinds, so that the run stage
can label and log its options."""

K_CARD, K_PLAYER, K_BOOL, K_TEXT, K_NUMBER = range(5)

"""What the tests share: helpers that are not tests themselves."""

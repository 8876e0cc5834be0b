extern int symbol_added_later(int);
int _start(void) { return symbol_added_later(2); }

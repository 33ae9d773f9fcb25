# Writes the bytes of IN as a C initializer list ending in a 0 byte (a string), into OUT.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "{${bytes}0}\n")

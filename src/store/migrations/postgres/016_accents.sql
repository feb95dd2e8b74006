-- 016 accents: full text folds a letter with one diacritic to its base letter, as SQLite's FTS5
-- does (its tokenizer's remove_diacritics=1), so `cafe` finds `café` and `Ærø`'s letters stay
-- as they are on both backends. goclaw_fold is that map (taken from FTS5 itself: the 378
-- letters it folds) and drops combining marks (a decomposed `é` is `e` and U+0301); the search
-- columns and every query go through it. goclaw_words splits at what is not part of a word:
-- an ASCII character that is not a letter or digit, and whatever the database's locale calls
-- punctuation or space (so a database whose LC_CTYPE is C, which knows no letter beyond ASCII,
-- still keeps `Привет` and `東京` whole).
CREATE FUNCTION goclaw_fold(t TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT pg_catalog.regexp_replace(pg_catalog.translate(t,
        'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǦǧǨǩǪǫǰǴǵǸǹȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȮȯȲȳḀḁḂḃḄḅḆḇḊḋḌḍḎḏḐḑḒḓḘḙḚḛḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḰḱḲḳḴḵḶḷḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṔṕṖṗṘṙṚṛṞṟṠṡṢṣṪṫṬṭṮṯṰṱṲṳṴṵṶṷṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẸẹẺẻẼẽỈỉỊịỌọỎỏỤụỦủỲỳỴỵỶỷỸỹKÅ',
        'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuggkkoojggnnaaaaeeeeiiiioooorrrruuuusstthhaaeeooyyaabbbbbbddddddddddeeeeffgghhhhhhhhhhiikkkkkkllllllmmmmmmnnnnnnnnpppprrrrrrssssttttttttuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwysaaaaeeeeeeiiiioooouuuuyyyyyyyyka'), '[\u0300-\u036F]+', '', 'g') $$;
CREATE FUNCTION goclaw_words(t TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path FROM CURRENT
    AS $$ SELECT pg_catalog.regexp_replace(goclaw_fold(t),
        '([^[:alnum:]\u0080-\U0010FFFF]|[[:punct:][:space:]])+', ' ', 'g') $$;
ALTER TABLE tasks DROP COLUMN search;
ALTER TABLE tasks ADD COLUMN search tsvector GENERATED ALWAYS AS
    (to_tsvector('simple', goclaw_words(subject || ' ' || description))) STORED;
CREATE INDEX tasks_search ON tasks USING GIN (search);
ALTER TABLE memory_chunks DROP COLUMN search;
ALTER TABLE memory_chunks ADD COLUMN search tsvector GENERATED ALWAYS AS
    (to_tsvector('simple', goclaw_words(text))) STORED;
CREATE INDEX memory_chunks_search ON memory_chunks USING GIN (search);

-- 016 accents: full text folds a letter with one diacritic to its base letter, as SQLite's FTS5
-- does (its tokenizer's remove_diacritics=1), so `cafe` finds `café` and `Ærø`'s letters stay
-- as they are on both backends. goclaw_fold is that map (taken from FTS5 itself: the 378
-- letters it folds); the search columns and every query go through it.
CREATE FUNCTION goclaw_fold(t TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT pg_catalog.translate(t,
        'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǦǧǨǩǪǫǰǴǵǸǹȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȮȯȲȳḀḁḂḃḄḅḆḇḊḋḌḍḎḏḐḑḒḓḘḙḚḛḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḰḱḲḳḴḵḶḷḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṔṕṖṗṘṙṚṛṞṟṠṡṢṣṪṫṬṭṮṯṰṱṲṳṴṵṶṷṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẸẹẺẻẼẽỈỉỊịỌọỎỏỤụỦủỲỳỴỵỶỷỸỹKÅ',
        'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuggkkoojggnnaaaaeeeeiiiioooorrrruuuusstthhaaeeooyyaabbbbbbddddddddddeeeeffgghhhhhhhhhhiikkkkkkllllllmmmmmmnnnnnnnnpppprrrrrrssssttttttttuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwysaaaaeeeeeeiiiioooouuuuyyyyyyyyka') $$;
ALTER TABLE tasks DROP COLUMN search;
ALTER TABLE tasks ADD COLUMN search tsvector GENERATED ALWAYS AS
    (to_tsvector('simple', regexp_replace(goclaw_fold(subject || ' ' || description), '[^[:alnum:]]+', ' ', 'g'))) STORED;
CREATE INDEX tasks_search ON tasks USING GIN (search);
ALTER TABLE memory_chunks DROP COLUMN search;
ALTER TABLE memory_chunks ADD COLUMN search tsvector GENERATED ALWAYS AS
    (to_tsvector('simple', regexp_replace(goclaw_fold(text), '[^[:alnum:]]+', ' ', 'g'))) STORED;
CREATE INDEX memory_chunks_search ON memory_chunks USING GIN (search);

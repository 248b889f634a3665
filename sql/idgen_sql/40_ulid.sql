---------------------------------------------------------------------------------------------------
-- ULID (docs/ulid.md) stored as uuid: the 16 bytes in ULID order (48-bit Unix ms, then the rest),
-- so the uuid order is the ULID order; its text is Crockford's base32 (the codec below serves
-- TypeID too).
--
-- What the SQL edition keeps of idgen's ULID generator: idgen's C generator counts the random part
-- up by one within a millisecond, so one generator's ids strictly increase. The SQL edition has no
-- session state that a rolled-back subtransaction would not undo (an id made there could be made
-- again), so it orders ids by time instead: after the 48-bit millisecond come 10 bits of the
-- microsecond within it (0 to 999) and 70 random bits. Ids of one session are ordered to the
-- microsecond; two made in the same microsecond are ordered by their random bits only.
---------------------------------------------------------------------------------------------------

-- The value (0 to 31) of the Crockford base32 character of a byte code, in either case, read in a
-- 256-byte table that the planner keeps as a constant: one get_byte instead of a search of the
-- alphabet. A byte outside the alphabet gives 0, never an error, so that the try_ forms can decode
-- before they know whether the text is valid.
CREATE FUNCTION idgen_lib.crockford_value(code integer)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.get_byte(
  '\x00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000010203040506070809000000000000'
  '000a0b0c0d0e0f101100121300141500161718191a001b1c1d1e1f0000000000000a0b0c0d0e0f101100121300141500161718191a001b1c1d1e1f0000000000'
  '00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
  '00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'::bytea,
  code);;

COMMENT ON FUNCTION idgen_lib.crockford_value(integer) IS
'The value of a Crockford base32 character code (either case); 0 for a byte outside the alphabet';

-- The two characters of each 10-bit value (0 to 1023) in upper case, then in lower case: 2048-byte
-- tables, so that encoding reads 13 pairs of characters instead of 26 single characters.
CREATE FUNCTION idgen_lib.crockford_pairs_upper()
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN '\x303030313032303330343035303630373038303930413042304330443045304630473048304a304b304d304e305030513052305330543056305730583059305a'
  '313031313132313331343135313631373138313931413142314331443145314631473148314a314b314d314e315031513152315331543156315731583159315a'
  '323032313232323332343235323632373238323932413242324332443245324632473248324a324b324d324e325032513252325332543256325732583259325a'
  '333033313332333333343335333633373338333933413342334333443345334633473348334a334b334d334e335033513352335333543356335733583359335a'
  '343034313432343334343435343634373438343934413442344334443445344634473448344a344b344d344e345034513452345334543456345734583459345a'
  '353035313532353335343535353635373538353935413542354335443545354635473548354a354b354d354e355035513552355335543556355735583559355a'
  '363036313632363336343635363636373638363936413642364336443645364636473648364a364b364d364e365036513652365336543656365736583659365a'
  '373037313732373337343735373637373738373937413742374337443745374637473748374a374b374d374e375037513752375337543756375737583759375a'
  '383038313832383338343835383638373838383938413842384338443845384638473848384a384b384d384e385038513852385338543856385738583859385a'
  '393039313932393339343935393639373938393939413942394339443945394639473948394a394b394d394e395039513952395339543956395739583959395a'
  '413041314132413341344135413641374138413941414142414341444145414641474148414a414b414d414e415041514152415341544156415741584159415a'
  '423042314232423342344235423642374238423942414242424342444245424642474248424a424b424d424e425042514252425342544256425742584259425a'
  '433043314332433343344335433643374338433943414342434343444345434643474348434a434b434d434e435043514352435343544356435743584359435a'
  '443044314432443344344435443644374438443944414442444344444445444644474448444a444b444d444e445044514452445344544456445744584459445a'
  '453045314532453345344535453645374538453945414542454345444545454645474548454a454b454d454e455045514552455345544556455745584559455a'
  '463046314632463346344635463646374638463946414642464346444645464646474648464a464b464d464e465046514652465346544656465746584659465a'
  '473047314732473347344735473647374738473947414742474347444745474647474748474a474b474d474e475047514752475347544756475747584759475a'
  '483048314832483348344835483648374838483948414842484348444845484648474848484a484b484d484e485048514852485348544856485748584859485a'
  '4a304a314a324a334a344a354a364a374a384a394a414a424a434a444a454a464a474a484a4a4a4b4a4d4a4e4a504a514a524a534a544a564a574a584a594a5a'
  '4b304b314b324b334b344b354b364b374b384b394b414b424b434b444b454b464b474b484b4a4b4b4b4d4b4e4b504b514b524b534b544b564b574b584b594b5a'
  '4d304d314d324d334d344d354d364d374d384d394d414d424d434d444d454d464d474d484d4a4d4b4d4d4d4e4d504d514d524d534d544d564d574d584d594d5a'
  '4e304e314e324e334e344e354e364e374e384e394e414e424e434e444e454e464e474e484e4a4e4b4e4d4e4e4e504e514e524e534e544e564e574e584e594e5a'
  '503050315032503350345035503650375038503950415042504350445045504650475048504a504b504d504e505050515052505350545056505750585059505a'
  '513051315132513351345135513651375138513951415142514351445145514651475148514a514b514d514e515051515152515351545156515751585159515a'
  '523052315232523352345235523652375238523952415242524352445245524652475248524a524b524d524e525052515252525352545256525752585259525a'
  '533053315332533353345335533653375338533953415342534353445345534653475348534a534b534d534e535053515352535353545356535753585359535a'
  '543054315432543354345435543654375438543954415442544354445445544654475448544a544b544d544e545054515452545354545456545754585459545a'
  '563056315632563356345635563656375638563956415642564356445645564656475648564a564b564d564e565056515652565356545656565756585659565a'
  '573057315732573357345735573657375738573957415742574357445745574657475748574a574b574d574e575057515752575357545756575757585759575a'
  '583058315832583358345835583658375838583958415842584358445845584658475848584a584b584d584e585058515852585358545856585758585859585a'
  '593059315932593359345935593659375938593959415942594359445945594659475948594a594b594d594e595059515952595359545956595759585959595a'
  '5a305a315a325a335a345a355a365a375a385a395a415a425a435a445a455a465a475a485a4a5a4b5a4d5a4e5a505a515a525a535a545a565a575a585a595a5a'::bytea;;

COMMENT ON FUNCTION idgen_lib.crockford_pairs_upper() IS
'The two upper-case Crockford base32 characters of each 10-bit value, 2 bytes per value';

CREATE FUNCTION idgen_lib.crockford_pairs_lower()
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN '\x303030313032303330343035303630373038303930613062306330643065306630673068306a306b306d306e307030713072307330743076307730783079307a'
  '313031313132313331343135313631373138313931613162316331643165316631673168316a316b316d316e317031713172317331743176317731783179317a'
  '323032313232323332343235323632373238323932613262326332643265326632673268326a326b326d326e327032713272327332743276327732783279327a'
  '333033313332333333343335333633373338333933613362336333643365336633673368336a336b336d336e337033713372337333743376337733783379337a'
  '343034313432343334343435343634373438343934613462346334643465346634673468346a346b346d346e347034713472347334743476347734783479347a'
  '353035313532353335343535353635373538353935613562356335643565356635673568356a356b356d356e357035713572357335743576357735783579357a'
  '363036313632363336343635363636373638363936613662366336643665366636673668366a366b366d366e367036713672367336743676367736783679367a'
  '373037313732373337343735373637373738373937613762376337643765376637673768376a376b376d376e377037713772377337743776377737783779377a'
  '383038313832383338343835383638373838383938613862386338643865386638673868386a386b386d386e387038713872387338743876387738783879387a'
  '393039313932393339343935393639373938393939613962396339643965396639673968396a396b396d396e397039713972397339743976397739783979397a'
  '613061316132613361346135613661376138613961616162616361646165616661676168616a616b616d616e617061716172617361746176617761786179617a'
  '623062316232623362346235623662376238623962616262626362646265626662676268626a626b626d626e627062716272627362746276627762786279627a'
  '633063316332633363346335633663376338633963616362636363646365636663676368636a636b636d636e637063716372637363746376637763786379637a'
  '643064316432643364346435643664376438643964616462646364646465646664676468646a646b646d646e647064716472647364746476647764786479647a'
  '653065316532653365346535653665376538653965616562656365646565656665676568656a656b656d656e657065716572657365746576657765786579657a'
  '663066316632663366346635663666376638663966616662666366646665666666676668666a666b666d666e667066716672667366746676667766786679667a'
  '673067316732673367346735673667376738673967616762676367646765676667676768676a676b676d676e677067716772677367746776677767786779677a'
  '683068316832683368346835683668376838683968616862686368646865686668676868686a686b686d686e687068716872687368746876687768786879687a'
  '6a306a316a326a336a346a356a366a376a386a396a616a626a636a646a656a666a676a686a6a6a6b6a6d6a6e6a706a716a726a736a746a766a776a786a796a7a'
  '6b306b316b326b336b346b356b366b376b386b396b616b626b636b646b656b666b676b686b6a6b6b6b6d6b6e6b706b716b726b736b746b766b776b786b796b7a'
  '6d306d316d326d336d346d356d366d376d386d396d616d626d636d646d656d666d676d686d6a6d6b6d6d6d6e6d706d716d726d736d746d766d776d786d796d7a'
  '6e306e316e326e336e346e356e366e376e386e396e616e626e636e646e656e666e676e686e6a6e6b6e6d6e6e6e706e716e726e736e746e766e776e786e796e7a'
  '703070317032703370347035703670377038703970617062706370647065706670677068706a706b706d706e707070717072707370747076707770787079707a'
  '713071317132713371347135713671377138713971617162716371647165716671677168716a716b716d716e717071717172717371747176717771787179717a'
  '723072317232723372347235723672377238723972617262726372647265726672677268726a726b726d726e727072717272727372747276727772787279727a'
  '733073317332733373347335733673377338733973617362736373647365736673677368736a736b736d736e737073717372737373747376737773787379737a'
  '743074317432743374347435743674377438743974617462746374647465746674677468746a746b746d746e747074717472747374747476747774787479747a'
  '763076317632763376347635763676377638763976617662766376647665766676677668766a766b766d766e767076717672767376747676767776787679767a'
  '773077317732773377347735773677377738773977617762776377647765776677677768776a776b776d776e777077717772777377747776777777787779777a'
  '783078317832783378347835783678377838783978617862786378647865786678677868786a786b786d786e787078717872787378747876787778787879787a'
  '793079317932793379347935793679377938793979617962796379647965796679677968796a796b796d796e797079717972797379747976797779787979797a'
  '7a307a317a327a337a347a357a367a377a387a397a617a627a637a647a657a667a677a687a6a7a6b7a6d7a6e7a707a717a727a737a747a767a777a787a797a7a'::bytea;;

COMMENT ON FUNCTION idgen_lib.crockford_pairs_lower() IS
'The two lower-case Crockford base32 characters of each 10-bit value, 2 bytes per value';

-- The 26 characters of a 128-bit value (the bytes of a uuid), left-padded to 130 bits: 13 groups of
-- 10 bits (group g holds bits 120 - 10g .. 129 - 10g, taken from the two bytes that hold them), each
-- read as two characters in pairs (idgen_lib.crockford_pairs_upper() for ULIDs, _lower() for
-- TypeIDs). One expression of byte reads that PostgreSQL inlines into the caller; the bytes are
-- ASCII, so encode(..., 'escape') turns them into text unchanged and without a conversion.
CREATE FUNCTION idgen_lib.crockford_encode(bytes bytea, pairs bytea)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(
    pg_catalog.substring(pairs, (pg_catalog.get_byte(bytes, 0) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 1) << 8) | pg_catalog.get_byte(bytes, 2)) >> 6) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 2) << 8) | pg_catalog.get_byte(bytes, 3)) >> 4) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 3) << 8) | pg_catalog.get_byte(bytes, 4)) >> 2) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, ((((pg_catalog.get_byte(bytes, 4) << 8) | pg_catalog.get_byte(bytes, 5)) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 6) << 8) | pg_catalog.get_byte(bytes, 7)) >> 6) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 7) << 8) | pg_catalog.get_byte(bytes, 8)) >> 4) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 8) << 8) | pg_catalog.get_byte(bytes, 9)) >> 2) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, ((((pg_catalog.get_byte(bytes, 9) << 8) | pg_catalog.get_byte(bytes, 10)) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 11) << 8) | pg_catalog.get_byte(bytes, 12)) >> 6) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 12) << 8) | pg_catalog.get_byte(bytes, 13)) >> 4) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, (((((pg_catalog.get_byte(bytes, 13) << 8) | pg_catalog.get_byte(bytes, 14)) >> 2) & 1023) << 1) + 1, 2)
    || pg_catalog.substring(pairs, ((((pg_catalog.get_byte(bytes, 14) << 8) | pg_catalog.get_byte(bytes, 15)) & 1023) << 1) + 1, 2),
  'escape');

COMMENT ON FUNCTION idgen_lib.crockford_encode(bytea, bytea) IS
'The 26 Crockford base32 characters of 16 bytes, read in a table of character pairs';

-- The 32 hex digits of the 26 base32 characters at bytes at .. at + 25 of bytes (the text's
-- textsend), read in either case: each character's value from idgen_lib.crockford_value, six at a
-- time in an integer (30 bits), then the two 64-bit halves (the first character's top 2 bits are
-- the padding; the 14th character is split between the halves). The text must have passed the
-- format's check: anything else gives some other value (an error when at .. at + 25 is outside
-- bytes). Callers pass textsend of a checked text from PL/pgSQL (ASCII: the same bytes in every
-- client encoding; textsend is STABLE, so an IMMUTABLE SQL body holding it is not inlined) or
-- decode(text, 'escape') (a checked text holds no backslash).
CREATE FUNCTION idgen_lib.crockford_decode_hex(bytes bytea, at integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(
  pg_catalog.int8send(((((idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 0)) << 25)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 1)) << 20)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 2)) << 15)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 3)) << 10)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 4)) << 5)
      | idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 5))))::bigint << 36)
    | ((((idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 6)) << 25)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 7)) << 20)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 8)) << 15)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 9)) << 10)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 10)) << 5)
      | idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 11))))::bigint << 6)
    | ((idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 12)) << 1) | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 13)) >> 4))::bigint)
  || pg_catalog.int8send((((((idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 13)) & 15) << 25)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 14)) << 20)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 15)) << 15)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 16)) << 10)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 17)) << 5)
      | idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 18))))::bigint << 35)
    | ((((idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 19)) << 25)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 20)) << 20)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 21)) << 15)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 22)) << 10)
      | (idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 23)) << 5)
      | idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 24))))::bigint << 5)
    | idgen_lib.crockford_value(pg_catalog.get_byte(bytes, at + 25))::bigint),
  'hex');

COMMENT ON FUNCTION idgen_lib.crockford_decode_hex(bytea, integer) IS
'The 32 hex digits of 26 checked Crockford base32 characters (either case) at bytes at .. at + 25';

-- The same for characters at .. at + 25 (1-based) of any text, for the try_ forms, which decode
-- before their check's result is appended: substr and ascii never raise (a position outside the
-- text reads '', code 0; a code above 255 is cut to its low byte), so no text raises an error.
-- Slower than the bytes (substr walks the characters), but it needs no conversion of the text
-- that would be repeated for each of the 26 characters.
CREATE FUNCTION idgen_lib.crockford_decode_hex_any(digits text, at integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(
  pg_catalog.int8send(((((idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 0, 1)) & 255)) << 25)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 1, 1)) & 255)) << 20)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 2, 1)) & 255)) << 15)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 3, 1)) & 255)) << 10)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 4, 1)) & 255)) << 5)
      | idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 5, 1)) & 255))))::bigint << 36)
    | ((((idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 6, 1)) & 255)) << 25)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 7, 1)) & 255)) << 20)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 8, 1)) & 255)) << 15)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 9, 1)) & 255)) << 10)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 10, 1)) & 255)) << 5)
      | idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 11, 1)) & 255))))::bigint << 6)
    | ((idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 12, 1)) & 255)) << 1) | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 13, 1)) & 255)) >> 4))::bigint)
  || pg_catalog.int8send((((((idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 13, 1)) & 255)) & 15) << 25)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 14, 1)) & 255)) << 20)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 15, 1)) & 255)) << 15)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 16, 1)) & 255)) << 10)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 17, 1)) & 255)) << 5)
      | idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 18, 1)) & 255))))::bigint << 35)
    | ((((idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 19, 1)) & 255)) << 25)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 20, 1)) & 255)) << 20)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 21, 1)) & 255)) << 15)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 22, 1)) & 255)) << 10)
      | (idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 23, 1)) & 255)) << 5)
      | idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 24, 1)) & 255))))::bigint << 5)
    | idgen_lib.crockford_value((pg_catalog.ascii(pg_catalog.substr(digits, at + 25, 1)) & 255))::bigint),
  'hex');

COMMENT ON FUNCTION idgen_lib.crockford_decode_hex_any(text, integer) IS
'idgen_lib.crockford_decode_hex for characters at .. at + 25 of any text, never an error';

-- A ULID text as idgen reads it: 26 characters of the alphabet in either case (I, L, O and U
-- refused), the first 0 to 7 (a larger one would need a 131st bit). In the C collation, which
-- compares bytes and which the regular expression needs whatever the caller's collation is. The
-- length is checked apart: a counted repetition ({25}) makes the regular expression engine build
-- a state per position at every call, several times slower than "*". Strict operators only (no
-- AND), so that the strict callers are inlined.
CREATE FUNCTION idgen_lib.ulid_text_ok(ulid text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.octet_length(ulid) = 26)::integer
        & ((ulid COLLATE pg_catalog."C")
           ~ '^[0-7][0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz]*$')::integer) = 1;

COMMENT ON FUNCTION idgen_lib.ulid_text_ok(text) IS
'Whether text is a ULID as idgen reads it';

-- Raises idgen's error for a text that is not a ULID (22P02): the first character outside the
-- alphabet, else the length, else a first character above 7. IMMUTABLE, as time_raise, so that
-- the helpers calling it are inlined; its argument is the text refused, never constant when the
-- text is not.
CREATE FUNCTION idgen_lib.ulid_refuse(ulid text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $refuse$
DECLARE
  bad text := substring(ulid COLLATE "C" FROM '[^0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz]');
  detail text;
BEGIN
  IF bad IS NOT NULL THEN
    detail := format('Character %s ("%s") is not in Crockford''s base32 alphabet 0-9, A-Z without I, L, O and U (either case).',
                     strpos(ulid, bad), bad);
  ELSIF octet_length(ulid) <> 26 THEN
    detail := format('A ULID is exactly 26 characters, got %s.', length(ulid));
  ELSE
    detail := format('The first character is "%s"; a ULID starts with 0 to 7 (the largest is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ).',
                     left(ulid, 1));
  END IF;
  RAISE EXCEPTION USING ERRCODE = '22P02',
    MESSAGE = format('invalid ULID: "%s"', idgen_lib.time_clip(ulid)), DETAIL = detail;
END
$refuse$;

COMMENT ON FUNCTION idgen_lib.ulid_refuse(text) IS
'Raises idgen''s 22P02 for a text that is not a ULID, naming the character, the length or the first character';

-- A new ULID of a Unix time in microseconds from one reading of the clock and one random uuid
-- (whose version and variant bits are left out): 48-bit ms, 10 bits of the microsecond in it,
-- 6 + 64 random bits.
CREATE FUNCTION idgen_lib.ulid_of_us(us bigint, random uuid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.lpad(pg_catalog.to_hex(((us / 1000) << 16) | ((us % 1000) << 6)
          | (('x' || pg_catalog.left(random::text, 2))::bit(8)::integer & 63)), 16, '0')
        || pg_catalog.substr(random::text, 16, 1) || pg_catalog.substr(random::text, 21, 3)
        || pg_catalog.right(random::text, 12))::uuid;

COMMENT ON FUNCTION idgen_lib.ulid_of_us(bigint, uuid) IS
'A ULID of a Unix time in microseconds: its ms, the microsecond within it (10 bits), 70 bits of a random uuid';

-- The smallest ULID of an instant's millisecond (floor), for the bound.
CREATE FUNCTION idgen_lib.ulid_bound_of(at timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN NOT pg_catalog.isfinite(at)
    THEN idgen_lib.time_raise(NULL::uuid, at, '22008', 'at must be a finite timestamp')
  WHEN at < '1970-01-01 00:00:00+00'::timestamptz OR at >= '10889-08-02 05:31:50.656+00'::timestamptz
    THEN idgen_lib.time_raise(NULL::uuid, at, '22008', 'at is outside the range of ULID timestamps',
                                   'ULID timestamps cover 1970-01-01 UTC to the year 10889.')
  ELSE (pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.time_unix_us(at) / 1000), 12, '0')
        || '00000000000000000000')::uuid
END;

COMMENT ON FUNCTION idgen_lib.ulid_bound_of(timestamptz) IS
'The smallest ULID of an instant''s millisecond (22008 outside 1970 .. 10889)';

---------------------------------------------------------------------------------------------------
-- The functions of idgen's ULID family (on uuid; the idgen.ulid type needs C).
---------------------------------------------------------------------------------------------------

-- PL/pgSQL for one clock reading and one random uuid in variables, as idgen.uuidv7().
CREATE FUNCTION idgen.ulid()
RETURNS uuid
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $ulid$
DECLARE
  us bigint := idgen_lib.time_unix_us(clock_timestamp());
  random uuid := gen_random_uuid();
BEGIN
  RETURN idgen_lib.ulid_of_us(us, random);
END
$ulid$;

COMMENT ON FUNCTION idgen.ulid() IS
'A new ULID as uuid: 48-bit Unix ms, then the microsecond within it (10 bits) and 70 random bits, so ids of a session are ordered to the microsecond';

CREATE FUNCTION idgen.to_ulid(id uuid)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.crockford_encode(pg_catalog.uuid_send(id), idgen_lib.crockford_pairs_upper());

COMMENT ON FUNCTION idgen.to_ulid(uuid) IS
'The 26-character ULID text of a uuid (Crockford base32, upper case), as pgx_ulid writes it';

CREATE FUNCTION idgen.ulid_to_uuid(ulid text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $decode$
BEGIN
  RETURN CASE WHEN idgen_lib.ulid_text_ok(ulid)
    THEN idgen_lib.crockford_decode_hex(pg_catalog.textsend(ulid), 0)::uuid
    ELSE idgen_lib.ulid_refuse(ulid)
  END;
END
$decode$;

COMMENT ON FUNCTION idgen.ulid_to_uuid(text) IS
'The uuid of a ULID text: 26 characters of Crockford base32 in either case, first character 0-7; 22P02 naming the character otherwise (I, L, O and U are refused)';

-- One strict expression, which PostgreSQL inlines: element 1 (the check passed) or 0 (a NULL) of a
-- one-element array appended to the digits makes the cast's text NULL for a text that is not a
-- ULID.
CREATE FUNCTION idgen.try_ulid_to_uuid(ulid text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (idgen_lib.crockford_decode_hex_any(ulid, 1)
        || ('{""}'::text[])[idgen_lib.ulid_text_ok(ulid)::integer])::uuid;

COMMENT ON FUNCTION idgen.try_ulid_to_uuid(text) IS
'idgen.ulid_to_uuid, but NULL for text that is not a ULID';

CREATE FUNCTION idgen.ulid_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.time_from_unix_us(
  ('x' || pg_catalog.substr(id::text, 1, 8) || pg_catalog.substr(id::text, 10, 4))::bit(48)::bigint * 1000);

COMMENT ON FUNCTION idgen.ulid_timestamp(uuid) IS
'The creation time of a ULID (its first 48 bits, Unix ms)';

CREATE FUNCTION idgen.ulid_bound(at timestamptz)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $bound$
BEGIN
  RETURN idgen_lib.ulid_bound_of(at);
END
$bound$;

COMMENT ON FUNCTION idgen.ulid_bound(timestamptz) IS
'The smallest ULID of an instant''s ms: id >= idgen.ulid_bound(t) selects the ULIDs made at or after t';

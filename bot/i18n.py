"""Every user-facing text, by message id, in each language the bot speaks.

``t(lang, key, **values)`` formats a message; an unknown language falls back to English.  A test checks
that every catalogue has every id and the same placeholders.  Values are inserted as they are given: the
caller escapes names for HTML.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_LANGUAGE = "en"

EN: dict[str, str] = {
    # games
    "game.four_card": "Four-card Kozel",
    "game.classic": "Classic Kozel",
    "game.czech": "Czech Kozel",
    # lobby
    "lobby.title": "🐐 <b>{game}</b> — a new game is gathering",
    "lobby.options": "Options: {options}",
    "lobby.seats_team": "Seats (partners sit opposite: 1 &amp; 3 against 2 &amp; 4):",
    "lobby.seats_czech": "Players ({count} of 3–6):",
    "lobby.empty_seat": "— free —",
    "lobby.how": "Tap <b>Join</b>: the bot opens a private chat where your cards will come. "
    "The creator starts the game when the table is full.",
    "lobby.join": "🙋 Join",
    "lobby.leave": "🚪 Leave",
    "lobby.start": "▶️ Start",
    "lobby.cancel": "✖️ Cancel",
    "lobby.sit": "Sit at {seat}",
    "lobby.started": "🐐 <b>{game}</b> has started: {players}.",
    "lobby.cancelled": "The game was cancelled.",
    "lobby.expired": "Nobody started the game for {minutes} minutes, so the lobby has closed. "
    "/newgame opens a new one.",
    "lobby.exists": "This chat already has a game (RULES X2: one at a time). Finish or cancel it first.",
    "lobby.need_players_team": "{game} needs exactly 4 players; {count} seated.",
    "lobby.need_players_czech": "Czech Kozel needs 3 to 6 players; {count} seated.",
    "lobby.full": "The table is full.",
    "lobby.only_creator": "Only {name}, who opened the game, or a chat admin can do that.",
    "lobby.not_seated": "You are not seated in this game.",
    "lobby.seat_taken": "That seat is taken.",
    "lobby.moved": "You moved to seat {seat}.",
    "lobby.left": "You left the game.",
    "lobby.gone": "This game is no longer gathering players.",
    "join.done": "You joined <b>{game}</b> in «{chat}». Your cards will come here when the game starts.",
    "join.already": "You are already seated in «{chat}».",
    "join.gone": "That game is no longer open. Ask for a new /newgame in the group.",
    # start / help
    "start.hello": "🐐 <b>Kozel bot</b> plays Kozel with friends in a Telegram group: four-card Kozel, "
    "classic Kozel and Czech Kozel.\n\nAdd me to a group and type /newgame there. Your cards come here, "
    "in this private chat, as buttons.",
    "start.add_to_group": "➕ Add to a group",
    "help.text": "<b>Commands</b>\n/newgame [four_card | classic | czech] — open a game in a group\n"
    "/score — the series table of this chat\n/rules [game] — the rules\n/language en|ru — language\n"
    "/help — this text\n\n<b>Playing</b>\nJoin with the button under the game message. Your hand comes in "
    "a private chat: tap a card to play it. In four-card Kozel tap several cards to choose them, then "
    "the Lead / Beat / Discard button with their number. Special moves (molodka, redeal, going out of "
    "trumps, double) appear as buttons exactly when they are allowed.",
    "rules.four_card": "<b>Four-card Kozel</b>: 4 players in two teams, 36 cards, 4 cards each, a trump shown "
    "from the stock. Lead 1–4 cards of one suit; each other player beats them card by card (with the same "
    "suit higher, or trumps) or discards as many cards face down. The last to beat takes the trick; "
    "everybody draws back to 4. Four cards of one suit are a molodka: play them at any moment of a trick. "
    "A team with 61+ card points wins the deal; the loser gets 2, 4 or 6 defeat points; 60:60 are eggs. "
    "12 defeat points and you are the goats.",
    "rules.classic": "<b>Classic Kozel</b>: 4 players in two teams, 36 or 32 cards, all dealt. Trumps are all "
    "jacks, all queens and every club (6♣ highest, then Q♣ Q♠ Q♥ Q♦ J♣ J♠ J♥ J♦ A♣ 10♣ K♣ 9♣ 8♣ 7♣). "
    "Follow suit (a trump to a trump); the highest trump or the highest card of the led suit wins. The A♦ "
    "leads the first deal and nobody leads a trump then. 61–90 card points give 2, 91+ give 4; catching "
    "the Q♣ with the 6♣ gives 4 at once. First to 12 wins.",
    "rules.czech": "<b>Czech Kozel</b>: 3–6 players, each for himself, 32 German cards. Follow suit; no trumps; "
    "the highest card of the led suit wins. Penalties: every heart 1, the green over (the kozel) 13. Its "
    "holder may double before the first lead. Taking every trick gives everybody else 21. The game ends "
    "when someone passes 100; the lowest total wins.",
    "rules.unknown": "I know these games: {games}.",
    # commands in the wrong place, bad input
    "where.group_only": "This command works in a group: add me to a group and use it there.",
    "unknown.command": "I do not know that command. /help lists what I understand.",
    "unknown.variant": "I do not know the game «{name}». Try: {games}.",
    "language.set": "Language: English.",
    "language.usage": "Use /language en or /language ru.",
    "language.admins_only": "Only chat admins can change the chat's language.",
    # presses
    "press.stale": "This button is out of date — your hand has been refreshed.",
    "press.not_yours": "These are not your cards.",
    "press.not_your_turn": "Not your turn.",
    "press.over": "This game is over.",
    "press.bad": "This button is not valid.",
    "press.illegal": "That move is not allowed now.",
    "press.not_playable": "You cannot play that card now.",
    # table and hand
    "table.header": "🐐 <b>{game}</b> · deal {deal}",
    "table.dealer": "Dealer: {name}",
    "table.trump": "Trump: {suit} (shown: {card})",
    "table.trump_taken": "Trump: {suit} (shown: {card}, taken by {name})",
    "table.stock": "Stock: {count}",
    "table.talon": "Talon: {count} face down",
    "table.classic_trumps": "Trumps: jacks, queens and clubs",
    "table.ban": "No trump leads: {names}",
    "table.eggs_pending": "Eggs waiting: {count}",
    "table.doubled": "Doubled by the kozel!",
    "table.trick": "On the table:",
    "table.trick_empty": "On the table: nothing yet",
    "table.play": "{name}: {cards}",
    "table.top": " ← top",
    "table.last_trick": "Last trick: {name} took it",
    "table.turn": "Turn: <b>{name}</b>",
    "table.score_teams": "Score: {a} {sa} · {b} {sb}",
    "table.score_players": "Totals: {totals}",
    "table.announce.exchange": "{name} went out of trumps",
    "table.announce.double": "{name} doubled (shows the kozel)",
    "team.a": "Team 1 ({names})",
    "team.b": "Team 2 ({names})",
    "hand.header": "🐐 <b>{game}</b> in «{chat}» · deal {deal}",
    "hand.your_turn": "👉 <b>Your turn.</b>",
    "hand.your_turn_lead": "👉 <b>Your lead.</b>",
    "hand.your_answer": "👉 <b>Your turn:</b> beat {count} or discard {count}.",
    "hand.wait": "Waiting for {name}.",
    "hand.giveback": "👉 Your partner went out of trumps and handed you {card}: choose a plain card to give back.",
    "hand.exchange_known": "You and your partner exchanged {given} ↔ {back}.",
    "hand.chosen": "Chosen: {cards}",
    "hand.deal_over": "Deal {deal} is over.",
    "hand.game_over": "The game is over.",
    "button.lead": "Lead {count}",
    "button.beat": "Beat with {count}",
    "button.discard": "Discard {count}",
    "button.clear": "Clear",
    "button.molodka": "🔥 Molodka!",
    "button.redeal": "🔄 Redeal (≤13 points)",
    "button.exchange": "🤝 Go out of trumps ({card})",
    "button.double": "✖️2 Double (show the kozel)",
    # results
    "deal.header": "📋 <b>Deal {deal}</b> of {game}",
    "deal.points_teams": "Card points: {a} {pa} · {b} {pb}",
    "deal.eggs": "🥚 60:60 — eggs! Nobody scores.",
    "deal.defeat": "{team} get {points} defeat points.",
    "deal.pairs": "{team} score {points}.",
    "deal.queen": "👑 The queen is caught: {team} score 4.",
    "deal.all_tricks": "{team} took every trick!",
    "deal.reset": "The other team's points drop to 0.",
    "deal.egg_bonus": "+{points} for the eggs.",
    "deal.penalties": "Penalties: {lines}",
    "deal.doubled": "Doubled!",
    "deal.shoot": "{name} took every trick: everybody else gets {points}.",
    "deal.totals": "Totals: {totals}",
    "series.goats": "🐐🐐 <b>{team} are the goats!</b>",
    "series.goats_eggs": "🐐🐐🥚 <b>{team} are the goats with eggs!</b>",
    "series.no_trick": "{team} took no trick and lose the series.",
    "series.winners": "🏆 Winners: {names}",
    "series.table_points": "Table points: {lines}",
    # score
    "score.none": "No game has been played in this chat yet. /newgame starts one.",
    "score.current": "<b>Current {game}</b> (deal {deal}):",
    "score.deal_line": "{deal}. {line}",
    "score.all_time": "<b>All-time table · {game}</b>",
    "score.all_time_line": "{rank}. {name} — played {played}, won {won}, lost {lost}",
    "score.all_time_czech_line": "{rank}. {name} — {points} table points ({played} games, {won} won)",
    "error.internal": "Something went wrong on my side; nothing was changed. Please try again.",
    "command.newgame": "open a game of Kozel in this group",
    "command.score": "the series table of this chat",
    "command.rules": "the rules of the games",
    "command.language": "choose the language",
    "command.help": "how to play",
    "command.start": "what this bot is",
    "computer.name": "🤖 Bot {n}",
    "level.random": "random",
    "level.basic": "basic",
    "level.strong": "strong",
    "lobby.add_computer": "🤖 Add computer",
    "lobby.remove_computer": "➖ Remove computer",
    "lobby.no_computer": "There is no computer player to remove.",
    "lobby.computer_added": "A computer player ({level}) sat down.",
    "timer.reminder": "⏳ Your turn in «{chat}»: {seconds} s left.",
    "timer.expired": "⏰ {name} ran out of time; the computer played for them ({count} of 2).",
    "timer.away": "🤖 {name} missed two turns in a row: a computer player holds the seat until they tap «I'm back».",
    "seat.blocked": "🚫 {name} has blocked the bot, so their cards cannot reach them: a computer player takes "
    "the seat until they start the bot again and tap «I'm back».",
    "seat.left_group": "🚪 {name} left the group: a computer player takes the seat.",
    "seat.kicked": "🤖 {name}'s seat goes to a computer player until they tap «I'm back».",
    "seat.back": "👋 {name} is back at the table.",
    "hand.away": "🤖 A computer player is playing for you. Tap «I'm back» to take your cards again.",
    "hand.back_button": "👋 I'm back",
    "press.not_away": "You are at the table already.",
    "cancel.done": "✖️ {name} cancelled the game. The deals played are kept, marked cancelled.",
    "cancel.lobby_done": "✖️ {name} cancelled the game.",
    "cancel.vote": "🗳 {name} proposes to cancel the game: {needed} of the {total} seated players must agree.",
    "cancel.vote_button": "✖️ Cancel the game ({votes}/{needed})",
    "cancel.voted": "Your vote is counted.",
    "cancel.already_voted": "You have voted already.",
    "cancel.not_seated": "Only players seated in the game vote.",
    "cancel.nothing": "There is no game to cancel in this chat.",
    "cancel.by_vote": "✖️ The players voted to cancel the game. The deals played are kept, marked cancelled.",
    "cancel.vote_over": "This vote is over.",
    "kick.usage": "Reply /kick to a message of the player whose seat should go to a computer player, or choose:",
    "kick.button": "🤖 {name}",
    "kick.not_allowed": "Only the game's creator or a chat admin can hand a seat to a computer player.",
    "kick.not_seated": "That person has no seat in the running game.",
    "kick.already": "A computer player holds that seat already.",
    "kick.nothing": "There is no running game in this chat.",
    "settings.title": "⚙️ <b>Settings of «{chat}»</b>",
    "settings.default_game": "New games: {game}",
    "settings.classic": "Classic Kozel: {deck} cards, redeal {redeal}, all tricks: {all_tricks}",
    "settings.timer": "Turn timer: {timer}",
    "settings.language": "Language: {language}",
    "settings.level": "Computer players: {level}",
    "settings.hint": "Tap a button to change a setting; a running game keeps the rules it started with.",
    "settings.not_allowed": "Only a chat admin or the creator of the running game can change settings.",
    "settings.saved": "Saved.",
    "settings.on": "on",
    "settings.off": "off",
    "settings.seconds": "{n} s",
    "settings.all_tricks_score": "4 points, the others drop to 0",
    "settings.all_tricks_lose_series": "the others lose the series",
    "settings.group_only": "Settings belong to a group: send /settings there.",
    "stats.title": "<b>Your games</b>",
    "stats.line": "{game}: {played} played, {won} won, {lost} lost",
    "stats.extra": "Eggs: {eggs} · molodkas: {molodkas} · kozels taken: {kozels}",
    "stats.none": "You have not finished a game yet.",
    "stats.private_only": "/stats answers in a private chat with the bot.",
    "bot.closed": "The bot was removed from the group; its game there was cancelled.",
    "command.cancel": "cancel the running game (creator, admin or a vote)",
    "command.kick": "give an absent player's seat to a computer",
    "command.settings": "settings of this chat",
    "command.stats": "your games and statistics",
}

RU: dict[str, str] = {
    "game.four_card": "Козёл на 4 карты",
    "game.classic": "Классический козёл",
    "game.czech": "Чешский козёл",
    "lobby.title": "🐐 <b>{game}</b> — собирается новая игра",
    "lobby.options": "Настройки: {options}",
    "lobby.seats_team": "Места (партнёры сидят напротив: 1 и 3 против 2 и 4):",
    "lobby.seats_czech": "Игроки ({count} из 3–6):",
    "lobby.empty_seat": "— свободно —",
    "lobby.how": "Нажмите <b>Играю</b>: бот откроет личный чат, куда придут ваши карты. "
    "Создатель начинает игру, когда стол заполнен.",
    "lobby.join": "🙋 Играю",
    "lobby.leave": "🚪 Выйти",
    "lobby.start": "▶️ Начать",
    "lobby.cancel": "✖️ Отменить",
    "lobby.sit": "Сесть на {seat}",
    "lobby.started": "🐐 <b>{game}</b> началась: {players}.",
    "lobby.cancelled": "Игра отменена.",
    "lobby.expired": "Игру не начали за {minutes} мин., набор закрыт. /newgame откроет новый.",
    "lobby.exists": "В этом чате уже есть игра (правило X2: одна за раз). Доиграйте или отмените её.",
    "lobby.need_players_team": "Для игры «{game}» нужно ровно 4 игрока; сейчас {count}.",
    "lobby.need_players_czech": "Для чешского козла нужно от 3 до 6 игроков; сейчас {count}.",
    "lobby.full": "Стол заполнен.",
    "lobby.only_creator": "Это может только {name}, создавший игру, или администратор чата.",
    "lobby.not_seated": "Вы не сидите в этой игре.",
    "lobby.seat_taken": "Это место занято.",
    "lobby.moved": "Вы пересели на место {seat}.",
    "lobby.left": "Вы вышли из игры.",
    "lobby.gone": "Эта игра уже не набирает игроков.",
    "join.done": "Вы в игре <b>{game}</b> в «{chat}». Карты придут сюда, когда игра начнётся.",
    "join.already": "Вы уже за столом в «{chat}».",
    "join.gone": "Эта игра уже закрыта. Попросите в группе новую /newgame.",
    "start.hello": "🐐 <b>Бот «Козёл»</b> играет в козла с друзьями в группе Telegram: козёл на 4 карты, "
    "классический и чешский козёл.\n\nДобавьте меня в группу и напишите там /newgame. Карты приходят "
    "сюда, в личный чат, кнопками.",
    "start.add_to_group": "➕ Добавить в группу",
    "help.text": "<b>Команды</b>\n/newgame [four_card | classic | czech] — открыть игру в группе\n"
    "/score — таблица серии этого чата\n/rules [игра] — правила\n/language ru|en — язык\n"
    "/help — эта справка\n\n<b>Как играть</b>\nПрисоединяйтесь кнопкой под сообщением игры. Карты приходят "
    "в личный чат: нажмите карту, чтобы сыграть её. В козле на 4 карты отметьте несколько карт, затем "
    "нажмите «Зайти» / «Побить» / «Сбросить» с их числом. Особые ходы (молодка, пересдача, отход от "
    "козырей, удвоение) появляются кнопками ровно тогда, когда они разрешены.",
    "rules.four_card": "<b>Козёл на 4 карты</b>: 4 игрока, две команды, 36 карт, по 4 на руках, козырь "
    "открывается из колоды. Заход — 1–4 карты одной масти; остальные бьют их карта за картой (старшей той же "
    "масти или козырем) или сбрасывают столько же карт рубашкой вверх. Взятка — последнему побившему; все "
    "добирают до 4. Четыре карты одной масти — молодка: её можно выложить в любой момент взятки. Команда с "
    "61+ очком выигрывает раздачу; проигравшим 2, 4 или 6 очков поражения; 60:60 — яйца. 12 очков "
    "поражения — вы козлы.",
    "rules.classic": "<b>Классический козёл</b>: 4 игрока, две команды, 36 или 32 карты, раздаются все. "
    "Козыри — все валеты, все дамы и все трефы (старшая 6♣, затем Д♣ Д♠ Д♥ Д♦ В♣ В♠ В♥ В♦ Т♣ 10♣ К♣ 9♣ 8♣ "
    "7♣). Ходить в масть (на козырь — козырем); берёт старший козырь или старшая карта заходной масти. "
    "В первой раздаче заходит туз ♦, с козыря не ходят. 61–90 очков — 2, 91+ — 4; поимка дамы ♣ "
    "шестёркой ♣ — сразу 4. Побеждает набравший 12.",
    "rules.czech": "<b>Чешский козёл</b>: 3–6 игроков, каждый сам за себя, 32 немецкие карты. Ходить в масть; "
    "козырей нет; берёт старшая карта заходной масти. Штраф: каждая черва 1, зелёный обер (козёл) 13. "
    "Его владелец может удвоить до первого хода. Взявший все взятки даёт остальным по 21. Игра кончается, "
    "когда у кого-то больше 100; побеждает наименьший счёт.",
    "rules.unknown": "Я знаю такие игры: {games}.",
    "where.group_only": "Эта команда работает в группе: добавьте меня в группу и напишите там.",
    "unknown.command": "Такой команды я не знаю. /help — список команд.",
    "unknown.variant": "Игры «{name}» я не знаю. Есть: {games}.",
    "language.set": "Язык: русский.",
    "language.usage": "Напишите /language ru или /language en.",
    "language.admins_only": "Язык чата могут менять только администраторы.",
    "press.stale": "Кнопка устарела — карты обновлены.",
    "press.not_yours": "Это не ваши карты.",
    "press.not_your_turn": "Сейчас не ваш ход.",
    "press.over": "Эта игра окончена.",
    "press.bad": "Эта кнопка недействительна.",
    "press.illegal": "Так сейчас ходить нельзя.",
    "press.not_playable": "Эту карту сейчас сыграть нельзя.",
    "table.header": "🐐 <b>{game}</b> · раздача {deal}",
    "table.dealer": "Сдаёт: {name}",
    "table.trump": "Козырь: {suit} (открыта {card})",
    "table.trump_taken": "Козырь: {suit} (открыта {card}, её взял {name})",
    "table.stock": "В колоде: {count}",
    "table.talon": "Прикуп: {count} рубашкой вверх",
    "table.classic_trumps": "Козыри: валеты, дамы и трефы",
    "table.ban": "С козыря не ходят: {names}",
    "table.eggs_pending": "Яйца ждут: {count}",
    "table.doubled": "Удвоено козлом!",
    "table.trick": "На столе:",
    "table.trick_empty": "На столе пока пусто",
    "table.play": "{name}: {cards}",
    "table.top": " ← сверху",
    "table.last_trick": "Прошлая взятка: {name}",
    "table.turn": "Ход: <b>{name}</b>",
    "table.score_teams": "Счёт: {a} {sa} · {b} {sb}",
    "table.score_players": "Итого: {totals}",
    "table.announce.exchange": "{name} отошёл от козырей",
    "table.announce.double": "{name} удвоил (показал козла)",
    "team.a": "Команда 1 ({names})",
    "team.b": "Команда 2 ({names})",
    "hand.header": "🐐 <b>{game}</b> в «{chat}» · раздача {deal}",
    "hand.your_turn": "👉 <b>Ваш ход.</b>",
    "hand.your_turn_lead": "👉 <b>Ваш заход.</b>",
    "hand.your_answer": "👉 <b>Ваш ход:</b> побейте {count} или сбросьте {count}.",
    "hand.wait": "Ждём: {name}.",
    "hand.giveback": "👉 Партнёр отошёл от козырей и отдал вам {card}: выберите простую карту для него.",
    "hand.exchange_known": "Вы с партнёром обменялись: {given} ↔ {back}.",
    "hand.chosen": "Выбрано: {cards}",
    "hand.deal_over": "Раздача {deal} окончена.",
    "hand.game_over": "Игра окончена.",
    "button.lead": "Зайти ({count})",
    "button.beat": "Побить ({count})",
    "button.discard": "Сбросить ({count})",
    "button.clear": "Сбросить выбор",
    "button.molodka": "🔥 Молодка!",
    "button.redeal": "🔄 Пересдача (≤13 очков)",
    "button.exchange": "🤝 Отойти от козырей ({card})",
    "button.double": "✖️2 Удвоить (показать козла)",
    "deal.header": "📋 <b>Раздача {deal}</b> · {game}",
    "deal.points_teams": "Очки: {a} {pa} · {b} {pb}",
    "deal.eggs": "🥚 60:60 — яйца! Никто не получает очков.",
    "deal.defeat": "{team} получают {points} очков поражения.",
    "deal.pairs": "{team} получают {points}.",
    "deal.queen": "👑 Дама поймана: {team} получают 4.",
    "deal.all_tricks": "{team} взяли все взятки!",
    "deal.reset": "Очки другой команды сгорают.",
    "deal.egg_bonus": "+{points} за яйца.",
    "deal.penalties": "Штраф: {lines}",
    "deal.doubled": "Удвоено!",
    "deal.shoot": "{name} взял все взятки: остальным по {points}.",
    "deal.totals": "Итого: {totals}",
    "series.goats": "🐐🐐 <b>{team} — козлы!</b>",
    "series.goats_eggs": "🐐🐐🥚 <b>{team} — козлы с яйцами!</b>",
    "series.no_trick": "{team} не взяли ни одной взятки и проиграли партию.",
    "series.winners": "🏆 Победители: {names}",
    "series.table_points": "Очки в таблицу: {lines}",
    "score.none": "В этом чате ещё не играли. /newgame начнёт игру.",
    "score.current": "<b>Текущая игра: {game}</b> (раздача {deal}):",
    "score.deal_line": "{deal}. {line}",
    "score.all_time": "<b>Таблица за всё время · {game}</b>",
    "score.all_time_line": "{rank}. {name} — сыграно {played}, побед {won}, поражений {lost}",
    "score.all_time_czech_line": "{rank}. {name} — {points} очков ({played} игр, {won} побед)",
    "error.internal": "Что-то сломалось у меня; ничего не изменено. Попробуйте ещё раз.",
    "command.newgame": "открыть игру в козла в этой группе",
    "command.score": "таблица серии этого чата",
    "command.rules": "правила игр",
    "command.language": "выбрать язык",
    "command.help": "как играть",
    "command.start": "что это за бот",
    "computer.name": "🤖 Бот {n}",
    "level.random": "случайный",
    "level.basic": "простой",
    "level.strong": "сильный",
    "lobby.add_computer": "🤖 Добавить компьютер",
    "lobby.remove_computer": "➖ Убрать компьютер",
    "lobby.no_computer": "Компьютерных игроков нет.",
    "lobby.computer_added": "За стол сел компьютер ({level}).",
    "timer.reminder": "⏳ Ваш ход в «{chat}»: осталось {seconds} с.",
    "timer.expired": "⏰ У игрока {name} вышло время; за него сходил компьютер ({count} из 2).",
    "timer.away": "🤖 {name} пропустил два хода подряд: за него играет компьютер, пока он не нажмёт «Я вернулся».",
    "seat.blocked": "🚫 {name} заблокировал бота, и карты до него не доходят: место занимает компьютер, пока он "
    "снова не запустит бота и не нажмёт «Я вернулся».",
    "seat.left_group": "🚪 {name} вышел из группы: его место занимает компьютер.",
    "seat.kicked": "🤖 Место игрока {name} занимает компьютер, пока он не нажмёт «Я вернулся».",
    "seat.back": "👋 {name} снова за столом.",
    "hand.away": "🤖 За вас играет компьютер. Нажмите «Я вернулся», чтобы снова взять карты.",
    "hand.back_button": "👋 Я вернулся",
    "press.not_away": "Вы и так за столом.",
    "cancel.done": "✖️ {name} отменил игру. Сыгранные раздачи сохранены с пометкой «отменена».",
    "cancel.lobby_done": "✖️ {name} отменил игру.",
    "cancel.vote": "🗳 {name} предлагает отменить игру: нужно согласие {needed} из {total} игроков за столом.",
    "cancel.vote_button": "✖️ Отменить игру ({votes}/{needed})",
    "cancel.voted": "Ваш голос учтён.",
    "cancel.already_voted": "Вы уже проголосовали.",
    "cancel.not_seated": "Голосуют только игроки за столом.",
    "cancel.nothing": "В этом чате нет игры, которую можно отменить.",
    "cancel.by_vote": "✖️ Игроки проголосовали за отмену игры. Сыгранные раздачи сохранены с пометкой «отменена».",
    "cancel.vote_over": "Это голосование закончено.",
    "kick.usage": "Ответьте /kick на сообщение игрока, чьё место отдать компьютеру, или выберите:",
    "kick.button": "🤖 {name}",
    "kick.not_allowed": "Отдать место компьютеру может только создатель игры или админ чата.",
    "kick.not_seated": "У этого человека нет места в текущей игре.",
    "kick.already": "За это место уже играет компьютер.",
    "kick.nothing": "В этом чате сейчас нет игры.",
    "settings.title": "⚙️ <b>Настройки чата «{chat}»</b>",
    "settings.default_game": "Новые игры: {game}",
    "settings.classic": "Классический козёл: {deck} карт, пересдача {redeal}, все взятки: {all_tricks}",
    "settings.timer": "Таймер хода: {timer}",
    "settings.language": "Язык: {language}",
    "settings.level": "Компьютерные игроки: {level}",
    "settings.hint": "Нажмите кнопку, чтобы изменить настройку; идущая игра доигрывается по своим правилам.",
    "settings.not_allowed": "Менять настройки может только админ чата или создатель текущей игры.",
    "settings.saved": "Сохранено.",
    "settings.on": "вкл.",
    "settings.off": "выкл.",
    "settings.seconds": "{n} с",
    "settings.all_tricks_score": "4 очка, у других обнуление",
    "settings.all_tricks_lose_series": "другие проигрывают партию",
    "settings.group_only": "Настройки относятся к группе: отправьте /settings там.",
    "stats.title": "<b>Ваши игры</b>",
    "stats.line": "{game}: сыграно {played}, побед {won}, поражений {lost}",
    "stats.extra": "Яйца: {eggs} · молодки: {molodkas} · взятых козлов: {kozels}",
    "stats.none": "Вы ещё не доиграли ни одной игры.",
    "stats.private_only": "/stats отвечает в личном чате с ботом.",
    "bot.closed": "Бота удалили из группы; игра там отменена.",
    "command.cancel": "отменить игру (создатель, админ или голосование)",
    "command.kick": "отдать место отсутствующего игрока компьютеру",
    "command.settings": "настройки этого чата",
    "command.stats": "ваши игры и статистика",
}

CATALOGUES: dict[str, Mapping[str, str]] = {"en": EN, "ru": RU}
LANGUAGES = tuple(CATALOGUES)
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "cs": "Čeština"}


def pick_language(*candidates: str | None) -> str:
    """The first candidate we speak (``"ru-RU"`` counts as ``"ru"``), else English."""
    for code in candidates:
        if code:
            short = code.split("-")[0].lower()
            if short in CATALOGUES:
                return short
    return DEFAULT_LANGUAGE


def t(lang: str, key: str, **values: object) -> str:
    catalogue = CATALOGUES.get(lang, EN)
    template = catalogue.get(key) or EN[key]
    return template.format(**values) if values else template
